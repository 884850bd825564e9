"""The bot runner: the server's own moves, for seats played by bots and seats out of time.

It looks at a match when a notification says it changed (service.live.hub) or when the clock's
sweep finds it due (service.live.sweep), waits until the soonest move is due, and acts through
MatchService like any client, at the version it decided on; then it looks again, so every bot seat
owing a move in a simultaneous phase moves once its own delay is over (each counted from when that
seat began to owe), one right after the other, not one per delay. When two server processes both
try, the store lets one win; the other gets a version clash and looks again, so a move is never
made twice.

A match whose move fails (the database away, or refusing the statement) is left alone for a
capped exponential back-off before the next poke may try it again, and the failures are logged
once per interval with a count (service.background.Retry): never a hot loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict

from domain.core import bots, match
from service.background import Retry
from service.clock import Due, never_due, next_due
from service.errors import ServiceError
from service.loading import Loaded
from service.matches import MatchService

log = logging.getLogger("hearthlog.bots")
LONGEST_WAIT = 30.0  # a move due later is left to the clock's sweep
REMEMBERED = 10_000  # matches known never to need a move, so notifications about them cost nothing


class BotRunner:
    """One task per match the server owes a move in; a poke makes it look again. It tells the
    time by its service's clock (service.sources)."""

    def __init__(self, service: MatchService, bot_delay: float, retry: Retry | None = None,
                 ) -> None:
        self.service, self.bot_delay = service, bot_delay
        self.retry = retry or Retry(log)  # failed matches, backed off; their log, bounded
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wakes: dict[str, asyncio.Event] = {}
        self._never: OrderedDict[str, None] = OrderedDict()

    def poke(self, match_id: str, version: int | None = None) -> None:
        """Look at a match soon: wake its task, or start one (unless it never needs a move).

        ``version`` is the one a notification announced: when this process already holds the
        match's state at that version or later (its own append) and that state owes no move,
        there is nothing to load and nothing to do.
        """
        if match_id in self._never or self.retry.waiting(match_id):
            return
        if match_id in self._wakes:
            self._wakes[match_id].set()
            return
        if version is not None and self._owes_nothing(match_id, version):
            return
        self._wakes[match_id] = asyncio.Event()
        self._tasks[match_id] = asyncio.create_task(self._follow(match_id), name="hearthlog-bot")

    def heard(self, match_id: str, version: int | None) -> None:
        """A notification (service.live.hub): the match changed, to ``version`` if known."""
        self.poke(match_id, version)

    async def stop(self) -> None:
        """Cancel every task."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _follow(self, match_id: str) -> None:
        """Make each move the server owes in a match as it falls due; end when none is near."""
        wake, again = self._wakes[match_id], False
        try:
            again = await self._moves(match_id, wake)
            self.retry.succeeded(match_id)
        except ServiceError as error:
            self.retry.failed(match_id, "no move made in match %s: %s", match_id, error.message,
                              plain=True)
        except Exception:  # the database may be away: the sweep comes back to it, backed off
            self.retry.failed(match_id, "no move made in match %s", match_id)
        finally:
            del self._tasks[match_id], self._wakes[match_id]
        if again:
            self.poke(match_id)

    async def step(self, match_id: str) -> Due | None:
        """One turn of the runner's loop, without waiting: make the move due by the clock now, if
        there is one; that move (None when none is due yet or the rules leave none to make). A
        version clash (another writer moved first) is raised, not planned around."""
        loaded, due = await self._plan(match_id)
        if due is None or self._wait(due) > 0:
            return None
        return due if await self._move(loaded, due.seat, due.kind) is not None else None

    async def _moves(self, match_id: str, wake: asyncio.Event) -> bool:
        """Plan, wait, act, until nothing is due soon; True when poked while finishing."""
        while True:
            wake.clear()
            loaded, due = await self._plan(match_id)
            if due is None:
                return wake.is_set()
            wait = self._wait(due)
            if wait > LONGEST_WAIT:
                return wake.is_set()
            if wait > 0:  # the loop's timer runs on another clock and may wake a little early,
                await _woken(wake, wait)  # so look at the clock again before acting
                continue
            if not await self.act(loaded, due):
                return False

    async def _plan(self, match_id: str) -> tuple[Loaded, Due | None]:
        """The match as stored and the server's soonest move in it (None: it owes none)."""
        loaded = await self.service.cache.load(match_id)
        due = next_due(loaded, self.bot_delay)
        if due is None:
            self._remember_if_never_due(loaded)
        return loaded, due

    def _wait(self, due: Due) -> float:
        """Seconds until a move is due by the clock (zero or less: due now)."""
        return (due.at - self.service.clock()).total_seconds()

    async def act(self, loaded: Loaded, due: Due) -> bool:
        """Make the one due move at the loaded version; True when moved or outrun (plan again)."""
        try:
            return await self._move(loaded, due.seat, due.kind) is not None
        except ServiceError as error:
            if error.status == 409:  # another writer moved first: plan again
                return True
            raise

    async def _move(self, loaded: Loaded, seat: int, kind: str) -> int | None:
        """One move for one seat: its bot's choice, or a time-out playing the game's default."""
        match_id, state = loaded.row.match_id, loaded.state
        if not isinstance(state, match.Table) or seat not in loaded.game.to_act(state.game):
            return None
        if kind == "clock":
            timeout = match.time_out(loaded.game, state, seat)
            if timeout is None:
                return None
            return await self.service.act_for(match_id, None, timeout, loaded.version)
        seed = await self.service.server_seed(match_id)
        stream = bots.bot_stream(match.table_rng(state, seed), loaded.version, seat)
        bot = match.bot_of(state, seat) or bots.RANDOM
        action = bots.choose(loaded.game, bot, state.game, seat, stream)
        if action is None:
            return None
        return await self.service.act_for(match_id, seat, action, loaded.version)

    def _owes_nothing(self, match_id: str, version: int) -> bool:
        """Whether the state this process holds, at ``version`` or later, owes no move now."""
        known = self.service.cache.known(match_id)
        if known is None or known.version < version or next_due(known, self.bot_delay):
            return False
        self._remember_if_never_due(known)
        return True

    def _remember_if_never_due(self, loaded: Loaded) -> None:
        """Remember (a bounded number of) matches that will never need a move."""
        if never_due(loaded):
            self._never[loaded.row.match_id] = None
            if len(self._never) > REMEMBERED:
                self._never.popitem(last=False)


async def _woken(wake: asyncio.Event, seconds: float) -> bool:
    """Wait up to ``seconds``; True when poked before then."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(wake.wait(), seconds)
        return True
    return False
