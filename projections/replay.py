"""Replays: a finished match event by event with the whole state after each, and past states.

The full replay shows everything (every hand, every deck order), so the service serves it only
once the match is over; a past view of a running match goes through the game's observer.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from domain.core import match
from domain.core.codec import event_decoder
from domain.core.decider import Game
from projections.export import Recorded


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One event: its number, time, acting seat and command, and the whole state after it."""

    version: int
    type: str
    recorded_at: datetime
    seat: int | None
    command: dict[str, Any] | None
    event: dict[str, Any]
    state: dict[str, Any]


class Replay(msgspec.Struct, frozen=True, kw_only=True):
    """A finished match from its first event to its last, nothing hidden."""

    match_id: str
    game: str
    rules_version: str
    names: list[str]
    seed_commitment: str
    server_seed: str
    client_seeds: list[str | None]
    steps: list[Step]


def full_replay(
    game: Game, match_id: str, server_seed: bytes, events: Sequence[Recorded]
) -> Replay:
    """Every event of a finished match with the state after it."""
    steps, state = [], None
    for event, typed in zip(events, decode(game, events), strict=True):
        state = match.evolve(game, state, typed)
        steps.append(step(event, state))
    assert state is not None, "a match has at least its first event"
    return Replay(
        match_id=match_id,
        game=game.id,
        rules_version=state.created.rules_version,
        names=list(state.names),
        seed_commitment=state.created.seed_commitment,
        server_seed=server_seed.hex(),
        client_seeds=list(state.client_seeds),
        steps=steps,
    )


def step(event: Recorded, state: match.MatchState) -> Step:
    """One replay step."""
    return Step(
        version=event.version,
        type=event.type,
        recorded_at=event.recorded_at,
        seat=event.metadata.get("seat"),
        command=event.metadata.get("command"),
        event=msgspec.json.decode(event.data),
        state=msgspec.to_builtins(state),
    )


def state_at(game: Game, events: Sequence[Recorded]) -> match.MatchState:
    """The match state after the given events (the first ``v`` of the match for version ``v``)."""
    return match.fold(game, decode(game, events))


def decode(game: Game, events: Sequence[Recorded]) -> list[Any]:
    """Typed events from stored ones."""
    decoder = event_decoder(game)
    return [decoder.decode(event.data) for event in events]
