"""Per-seat turn clocks and the server's own moves: when each seat is due.

Each seat the rules wait on (``to_act``) began to owe its move at some match version (the
match state keeps it: ``domain.core.match.owing_since``), and that event's recorded time starts
the seat's own clock: a match created with ``turn_seconds`` plays for a seat that long after it
began to owe, with the game's declared default (``Rulebook.on_time_out``), logged as a
time-out; a bot seat moves ``bot_delay`` seconds after it began to owe. Another seat moving
never restarts a seat's clock. Everything is derived from stored events (their versions and
recorded times), never from timers held only in memory, so a restarted server picks them up:
every append records when the longest-owing seat and bot seat began to owe (``OwedSince``), the
sweep (service.live.sweep) finds due matches by it, and the bot runner (service.live.bots) acts.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Literal

import msgspec

from domain.core import match
from service.loading import Loaded
from service.store import OwedSince


class Due(msgspec.Struct, frozen=True, kw_only=True):
    """One move the server owes: when, for which seat, and why (its bot, or its clock)."""

    at: datetime
    seat: int
    kind: Literal["bot", "clock"]


def owed_times(
    state: match.MatchState, times: Mapping[int, datetime], fallback: datetime
) -> dict[int, datetime]:
    """When each seat owing a move began to owe it: the recorded time of the version it began
    at (``fallback`` for a version whose time is not known)."""
    return {seat: times.get(since, fallback) for seat, since in match.owing_since(state).items()}


def deadlines(
    state: match.MatchState, times: Mapping[int, datetime], fallback: datetime
) -> dict[int, datetime]:
    """Each owing seat's deadline, if the match has a turn clock (none once it is over)."""
    seconds = match.turn_seconds(state)
    if seconds is None:
        return {}
    step = timedelta(seconds=seconds)
    return {seat: at + step for seat, at in owed_times(state, times, fallback).items()}


def dues(loaded: Loaded, bot_delay: float) -> list[Due]:
    """Every move the server owes in a match, soonest first: each bot seat ``bot_delay`` after
    it began to owe, each seat (bot or not) at its deadline, whichever comes first."""
    state, game = loaded.state, loaded.game
    if not isinstance(state, match.Table) or match.outcome(game, state) is not None:
        return []
    began = owed_times(state, loaded.times, loaded.row.updated_at)
    ends = deadlines(state, loaded.times, loaded.row.updated_at)
    found = []
    for seat, at in began.items():
        options = [Due(at=ends[seat], seat=seat, kind="clock")] if seat in ends else []
        if match.bot_of(state, seat):
            options.append(Due(at=at + timedelta(seconds=bot_delay), seat=seat, kind="bot"))
        if options:
            found.append(min(options, key=lambda due: due.at))
    return sorted(found, key=lambda due: (due.at, due.seat))


def next_due(loaded: Loaded, bot_delay: float) -> Due | None:
    """The server's soonest move in a match, or None when it owes none."""
    found = dues(loaded, bot_delay)
    return found[0] if found else None


def owed_since(state: match.MatchState) -> OwedSince:
    """What an append records for the sweep: the version the longest-owing seat began to owe
    at (with a turn clock), and the same among bot seats."""
    if not isinstance(state, match.Table):
        return OwedSince()
    since = match.owing_since(state)
    bots = [v for seat, v in since.items() if match.bot_of(state, seat)]
    clocked = match.turn_seconds(state) is not None
    return OwedSince(clock=min(since.values(), default=None) if clocked else None,
                     bots=min(bots, default=None))


def never_due(loaded: Loaded) -> bool:
    """Whether the server will never owe a move here: over, or in play with no bot and no clock.

    (Bots only join in the lobby and the clock is set at creation, so neither can appear later.)
    """
    state, game = loaded.state, loaded.game
    if not isinstance(state, match.Table):
        return False
    over = match.outcome(game, state) is not None
    return over or (not any(state.bots) and match.turn_seconds(state) is None)
