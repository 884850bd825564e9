"""The read standby's probe, run beside the requests: how far behind it is, measured afresh every
``probe_seconds`` (what a probe proves is service.store.replica's)."""

from __future__ import annotations

import asyncio
import logging

from service.background import Background
from service.store.provisioning import warn_failed
from service.store.replica import Standby

log = logging.getLogger("hearthlog.replica")


class Probing(Background):
    """Probes the standby every ``probe_seconds`` until stopped, whatever a probe meets."""

    name = "hearthlog-standby-probe"

    def __init__(self, standby: Standby) -> None:
        self.standby = standby

    async def _run(self) -> None:
        """Probe, wait, probe again. A probe that fails in a way nobody foresaw marks the standby
        down (reads go to the primary) and is logged with its traceback; the next one runs as
        usual: a probe that ended would leave many-match exports refused until a restart."""
        while True:
            await asyncio.sleep(self.standby.settings.probe_seconds)
            try:
                await self.standby.probe()
            except Exception as error:  # any failure: the loop must go on
                warn_failed(log, "the standby's probe failed")
                self.standby.failed(error)
