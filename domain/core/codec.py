"""Canonical bytes for events and commands, and typed decoders over a game's unions."""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from domain.core.decider import Concede, Game
from domain.core.match import JoinSeat, MatchEvent, StartMatch

_encoder = msgspec.json.Encoder()


def encode(value: Any) -> bytes:
    """Canonical JSON bytes: fields in declaration order, the tag first, no spaces."""
    return _encoder.encode(value)


def tag_of(value: msgspec.Struct) -> str:
    """The tag a tagged Struct is stored under (the events table's ``type``)."""
    tag = type(value).__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{type(value).__name__} is not a tagged Struct")
    return tag


@functools.cache
def event_decoder(game: Game) -> msgspec.json.Decoder[Any]:
    """A decoder for every event a match of this game can hold."""
    return msgspec.json.Decoder(MatchEvent | game.Event)


@functools.cache
def command_decoder(game: Game) -> msgspec.json.Decoder[Any]:
    """A decoder for every command a seat may send in a match of this game."""
    return msgspec.json.Decoder(game.Command)


def command_type(game: Game) -> Any:
    """The union of the game's commands (Concede included)."""
    return game.Command


__all__ = ["Concede", "JoinSeat", "StartMatch", "encode", "event_decoder", "tag_of"]
