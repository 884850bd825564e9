"""Canonical bytes for events and commands, and typed decoders over a game's unions."""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from domain.core.decider import Concede, Game
from domain.core.match import JoinSeat, MatchCommand, MatchEvent, StartMatch

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


@functools.cache
def recorded_command_decoder(game: Game) -> msgspec.json.Decoder[Any]:
    """A decoder for every command a match of this game records (the lobby's and time-outs too)."""
    return msgspec.json.Decoder(MatchCommand | game.Command)


def as_typed(decoder: msgspec.json.Decoder[Any], value: Any) -> Any:
    """A JSON-shaped value as the decoder's type; ValidationError naming what does not fit.

    Through a cached decoder rather than ``msgspec.convert``, which plans a bare union again
    on every call (about 22 µs for a game's commands, against under 2 µs this way).
    """
    return decoder.decode(encode(value))


def command_type(game: Game) -> Any:
    """The union of the game's commands (Concede included)."""
    return game.Command


__all__ = ["Concede", "JoinSeat", "StartMatch", "encode", "event_decoder", "tag_of"]
