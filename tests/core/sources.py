"""Seed sources and clocks for tests (service.sources): a counted seed source, which deals the
same matches in the same order every run, and a clock that stands still until stepped."""

from __future__ import annotations

import hashlib
import itertools
from datetime import UTC, datetime, timedelta

from service.sources import SeedSource

# Where a stopped clock starts unless told: a fixed moment, so runs tell the same times. (With
# PostgresStore, which records the database's now(), start it at the wall clock's time instead.)
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


def counted_seed(label: str, n: int) -> bytes:
    """The ``n``-th seed (from 0) of ``label``: SHA-256(label as UTF-8 || ":" || n in decimal)."""
    return hashlib.sha256(f"{label}:{n}".encode()).digest()


def counted_seeds(label: str) -> SeedSource:
    """A seed source giving counted_seed(label, 0), then 1, 2...: each new source of the same
    label deals the same matches in the same order."""
    counter = itertools.count()
    return lambda: counted_seed(label, next(counter))


class StoppedClock:
    """A clock that tells the same time until a test advances it (service.sources.Clock)."""

    def __init__(self, start: datetime = START) -> None:
        if start.tzinfo is None:
            raise ValueError("a clock tells aware times: give the start a time zone")
        self.now = start

    def __call__(self) -> datetime:
        """The time it shows."""
        return self.now

    def advance(self, seconds: float) -> datetime:
        """Move it on by ``seconds`` (never back); the new time."""
        if seconds < 0:
            raise ValueError("a clock never runs backwards")
        self.now += timedelta(seconds=seconds)
        return self.now

    def advance_to(self, moment: datetime) -> datetime:
        """Move it on to ``moment`` (never back); the new time."""
        return self.advance((moment - self.now).total_seconds())
