"""A loop a server process runs beside its requests, from start-up until shutdown, and how such
work meets a failure that repeats: backed off, and logged once per interval with a count."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from service.store.provisioning import warn_failed


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


class Sweeping(Background):
    """Runs ``sweep`` every ``interval`` seconds until stopped; a failed sweep is logged (once per
    minute at most, ``failure`` its line) and tried again, later each time it fails again in a
    row (``retry``, a ``Retry`` the subclass makes)."""

    interval: float
    retry: Retry
    failure = "a sweep failed; trying again"

    async def _run(self) -> None:
        """Sweep, pause, sweep again; backed off while sweeps fail."""
        while True:
            pause = self.interval
            try:
                await self.sweep()
                self.retry.succeeded(self.name)
            except Exception:  # the database may be away: sweep again, backed off
                pause = self.retry.failed(self.name, self.failure)
            await asyncio.sleep(pause)

    async def sweep(self) -> None:
        """One pass."""
        raise NotImplementedError


class Retry:
    """Failures of background work (a bot's move, a sweep, a live feed's read), by key.

    A key that failed is tried again only after a capped exponential back-off: ``first``
    seconds after its first failure in a row, twice that after the second, and so on up to
    ``cap``; a success forgets it. The failures of all keys are logged together, at most one
    line per ``interval`` seconds: the first at once (as ``warn_failed`` words it: an outage in
    one line, anything else with its traceback), then the next after the interval, with the
    count of those left out since. So a fault that repeats is never a hot loop, nor a flood of
    tracebacks (docs/live.md, "When background work fails"). ``now`` is the time in seconds (a
    test hands in its own).
    """

    def __init__(self, logger: logging.Logger, *, first: float = 1.0, cap: float = 30.0,
                 interval: float = 60.0, now: Callable[[], float] = time.monotonic,
                 keep: int = 10_000) -> None:
        self.logger, self.first, self.cap, self.interval = logger, first, cap, interval
        self.now, self.keep = now, keep
        self._failing: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._logged_at: float | None = None
        self.unlogged = 0  # failures since the last line

    def failures(self, key: str) -> int:
        """How many times in a row ``key`` has failed (0: it has not, or it recovered)."""
        return self._failing.get(key, (0, 0.0))[0]

    def waiting(self, key: str) -> float:
        """Seconds before ``key`` may be tried again (0: now)."""
        return max(0.0, self._failing.get(key, (0, 0.0))[1] - self.now())

    def failed(self, key: str, message: str, *args: Any, plain: bool = False) -> float:
        """Count a failure of ``key`` (call it inside the ``except``), log it if a line is due
        (``plain``: the message says it all, no traceback); the seconds to wait before trying
        it again."""
        count = self.failures(key) + 1
        delay = min(self.cap, self.first * 2 ** (count - 1))
        self._failing[key] = (count, self.now() + delay)
        self._failing.move_to_end(key)
        while len(self._failing) > self.keep:
            self._failing.popitem(last=False)
        self._log(plain, message, *args)
        return delay

    def succeeded(self, key: str) -> None:
        """``key`` worked: its next failure starts the back-off afresh."""
        self._failing.pop(key, None)

    def _log(self, plain: bool, message: str, *args: Any) -> None:
        """One line now if none was written within the interval, else only counted."""
        now = self.now()
        if self._logged_at is not None and now - self._logged_at < self.interval:
            self.unlogged += 1
            return
        if self.unlogged:
            message += f" (and {self.unlogged} more failures since the last such line)"
        self._logged_at, self.unlogged = now, 0
        if plain:
            self.logger.warning(message, *args)
        else:
            warn_failed(self.logger, message, *args)
