"""The read standby's probe, run beside the requests: how far behind it is, measured afresh every
``probe_seconds`` (what a probe proves is service.store.replica's)."""

from __future__ import annotations

import asyncio

from service.background import Background
from service.store.replica import Standby


class Probing(Background):
    """Probes the standby every ``probe_seconds`` until stopped."""

    name = "hearthlog-standby-probe"

    def __init__(self, standby: Standby) -> None:
        self.standby = standby

    async def _run(self) -> None:
        """Probe, wait, probe again."""
        while True:
            await asyncio.sleep(self.standby.settings.probe_seconds)
            await self.standby.probe()
