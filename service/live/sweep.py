"""The clock's sweep: every few seconds, the matches where the server owes a move (a bot's, or a
turn clock's that ran out), handed to the bot runner (service.live.bots). When each move is due
is the application's (service.clock); this loop only asks the store and passes the ids on.
"""

from __future__ import annotations

import logging

from service.background import Retry, Sweeping
from service.live.bots import BotRunner
from service.store import MatchRows

log = logging.getLogger("hearthlog.clock")
CAP = 10.0  # the longest pause between failed sweeps: play resumes soon after an outage


class Sweep(Sweeping):
    """Every ``interval`` seconds, asks the store which matches are due and hands them on."""

    name = "hearthlog-clock-sweep"
    failure = "the clock sweep failed; trying again"

    def __init__(
        self, store: MatchRows, bots: BotRunner, bot_delay: float, interval: float
    ) -> None:
        self.store, self.bots = store, bots
        self.bot_delay, self.interval = bot_delay, interval
        self.retry = Retry(log, first=interval, cap=max(interval, CAP))

    async def sweep(self) -> None:
        """Hand every due match to the bot runner."""
        for match_id in await self.store.due_matches(bot_delay=self.bot_delay):
            self.bots.poke(match_id)
