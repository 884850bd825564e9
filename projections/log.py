"""The match log: public lines for everyone, private lines only for the seat they belong to."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core import match
from domain.core.decider import Game, LogEntry


class LogLine(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the log as a client sees it."""

    version: int
    text: str
    private: bool = False


def match_lines(game: Game, before: match.MatchState | None, event: Any) -> list[LogEntry]:
    """The lines one event gives, lobby events included."""
    match event:
        case match.MatchCreated():
            kind = "practice match" if event.practice else "match"
            return [LogEntry(text=f"A {kind} of {game.title} for {event.seats} seats was opened")]
        case match.SeatJoined() if event.bot is not msgspec.UNSET:
            return [LogEntry(text=f"{event.name} (bot) took seat {event.seat}")]
        case match.SeatJoined():
            return [LogEntry(text=f"{event.name} took seat {event.seat}")]
        case match.MatchStarted():
            return [LogEntry(text="The match began")]
        case match.SeatTimedOut():
            name = before.names[event.seat] if before else f"seat {event.seat}"
            return [LogEntry(text=f"{name} timed out; the server played for them")]
    table = before.game if isinstance(before, match.Table) else None
    return game.log_entries(table, event)


def seat_log(game: Game, events: list[Any], seat: int | None, after: int = 0) -> list[LogLine]:
    """Every line after version ``after`` that ``seat`` may read (None: public lines only)."""
    lines: list[LogLine] = []
    state: match.MatchState | None = None
    for version, event in enumerate(events, start=1):
        if version > after:
            lines += event_lines(game, state, event, version, seat)
        state = match.evolve(game, state, event)
    return lines


def event_lines(
    game: Game, before: match.MatchState | None, event: Any, version: int, seat: int | None
) -> list[LogLine]:
    """The lines of one event that ``seat`` may read (None: public lines only)."""
    return [
        LogLine(version=version, text=entry.text, private=entry.seat is not None)
        for entry in match_lines(game, before, event)
        if entry.seat is None or entry.seat == seat
    ]
