"""The clock's sweep: every few seconds, the matches where the server owes a move (a bot's, or a
turn clock's that ran out), handed to the bot runner (service.live.bots). When each move is due
is the application's (service.clock); this loop only asks the store and passes the ids on.
"""

from __future__ import annotations

import asyncio
import logging

from service.background import Background
from service.live.bots import BotRunner
from service.store import MatchRows
from service.store.provisioning import warn_failed

log = logging.getLogger("hearthlog.clock")


class Sweep(Background):
    """Every ``interval`` seconds, asks the store which matches are due and hands them on."""

    name = "hearthlog-clock-sweep"

    def __init__(
        self, store: MatchRows, bots: BotRunner, bot_delay: float, interval: float
    ) -> None:
        self.store, self.bots = store, bots
        self.bot_delay, self.interval = bot_delay, interval

    async def _run(self) -> None:
        """Sweep until stopped; a failed sweep is logged and tried again next time."""
        while True:
            try:
                for match_id in await self.store.due_matches(bot_delay=self.bot_delay):
                    self.bots.poke(match_id)
            except Exception:  # the database may be away: sweep again next time
                warn_failed(log, "the clock sweep failed; trying again")
            await asyncio.sleep(self.interval)
