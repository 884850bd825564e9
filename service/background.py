"""A loop a server process runs beside its requests, from start-up until shutdown."""

from __future__ import annotations

import asyncio


class Background:
    """Runs ``_run`` as one named task between ``start`` and ``stop``."""

    name = "hearthlog-background"
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin running in the background."""
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """Cancel the task and wait until it has ended."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        """The loop itself."""
        raise NotImplementedError
