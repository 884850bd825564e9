"""Turn clocks and the server's own moves: when a seat is due to be played for, and the sweep.

A match created with ``turn_seconds`` gives the seats owing an action (``to_act``) that long from
the match's latest event; then the server plays for them with the random bot's choice, logged as
a time-out. Bots act ``bot_delay`` seconds after the latest event. Both are derived from stored
events (the time of the latest one), never from timers held only in memory, so a restarted
server picks them up; the sweep below finds them, the bot runner (service.bots) acts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Literal

import msgspec

from domain.core import match
from service.background import Background
from service.loading import Loaded
from service.store import EventStore

log = logging.getLogger("hearthlog.clock")


class Due(msgspec.Struct, frozen=True, kw_only=True):
    """The server's next move in a match: when, for which seats, and why."""

    at: datetime
    seats: tuple[int, ...]
    kind: Literal["bot", "clock"]


def deadline(state: match.MatchState, waiting: tuple[int, ...], since: datetime) -> datetime | None:
    """When the seats owing an action are played for, if the match has a turn clock."""
    seconds = match.turn_seconds(state)
    if seconds is None or not waiting:
        return None
    return since + timedelta(seconds=seconds)


def next_due(loaded: Loaded, bot_delay: float) -> Due | None:
    """The server's next move: a bot to act, else every seat owing an action when its clock ends."""
    state, game = loaded.state, loaded.game
    if not isinstance(state, match.Table) or match.outcome(game, state) is not None:
        return None
    waiting = game.to_act(state.game)
    since = loaded.row.updated_at
    bots = tuple(seat for seat in waiting if match.bot_of(state, seat))
    if bots:
        return Due(at=since + timedelta(seconds=bot_delay), seats=bots[:1], kind="bot")
    ends = deadline(state, waiting, since)
    return None if ends is None else Due(at=ends, seats=waiting, kind="clock")


def never_due(loaded: Loaded) -> bool:
    """Whether the server will never owe a move here: over, or in play with no bot and no clock.

    (Bots only join in the lobby and the clock is set at creation, so neither can appear later.)
    """
    state, game = loaded.state, loaded.game
    if not isinstance(state, match.Table):
        return False
    over = match.outcome(game, state) is not None
    return over or (not any(state.bots) and match.turn_seconds(state) is None)


class Sweep(Background):
    """Every ``interval`` seconds, asks the store which matches are due and hands them on."""

    name = "hearthlog-clock-sweep"

    def __init__(
        self, store: EventStore, poke: Callable[[str], None], bot_delay: float, interval: float
    ) -> None:
        self.store, self.poke = store, poke
        self.bot_delay, self.interval = bot_delay, interval

    async def _run(self) -> None:
        """Sweep until stopped; a failed sweep is logged and tried again next time."""
        while True:
            try:
                for match_id in await self.store.due_matches(bot_delay=self.bot_delay):
                    self.poke(match_id)
            except Exception:  # the database may be away: sweep again next time
                log.warning("the clock sweep failed; trying again", exc_info=True)
            await asyncio.sleep(self.interval)
