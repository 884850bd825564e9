"""The clock's sweep: every few seconds, the matches where the server owes a move (a bot's, or a
turn clock's that ran out), handed to the bot runner (service.live.bots). When each move is due
is the application's (service.clock); this loop only asks the store and passes the ids on.
"""

from __future__ import annotations

import asyncio
import logging

from service.background import Background, Retry
from service.live.bots import BotRunner
from service.store import MatchRows

log = logging.getLogger("hearthlog.clock")
CAP = 10.0  # the longest pause between failed sweeps: play resumes soon after an outage


class Sweep(Background):
    """Every ``interval`` seconds, asks the store which matches are due and hands them on."""

    name = "hearthlog-clock-sweep"

    def __init__(
        self, store: MatchRows, bots: BotRunner, bot_delay: float, interval: float
    ) -> None:
        self.store, self.bots = store, bots
        self.bot_delay, self.interval = bot_delay, interval
        self.retry = Retry(log, first=interval, cap=max(interval, CAP))

    async def _run(self) -> None:
        """Sweep until stopped; a failed sweep is logged (once per minute at most) and tried
        again, later each time it fails again in a row (service.background.Retry)."""
        while True:
            pause = self.interval
            try:
                for match_id in await self.store.due_matches(bot_delay=self.bot_delay):
                    self.bots.poke(match_id)
                self.retry.succeeded(self.name)
            except Exception:  # the database may be away: sweep again, backed off
                pause = self.retry.failed(self.name, "the clock sweep failed; trying again")
            await asyncio.sleep(pause)
