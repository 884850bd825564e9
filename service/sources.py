"""Where the service gets what the rules never make: fresh secret seeds and the time of day.

Both come in through the constructors (``MatchService(..., seeds=, clock=)``, ``TournamentService``,
``MemoryStore``, ``create_app``; the bot runner tells the time by its service's clock), so a
test can hand in a seed source that deals a chosen match and a clock it steps by hand
(tests/core/sources.py); production uses the two defaults below (docs/live.md, "Seeds and clocks
in tests").
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TypeAlias

SEED_BYTES = 32

SeedSource: TypeAlias = Callable[[], bytes]
"""Gives a fresh 32-byte server seed each call (a match's, a tournament's lot)."""

Clock: TypeAlias = Callable[[], datetime]
"""Gives the time now, as an aware datetime."""


def secret_seed() -> bytes:
    """32 bytes from the operating system's cryptographic generator (docs/fairness.md, 1.1)."""
    return secrets.token_bytes(SEED_BYTES)


def wall_clock() -> datetime:
    """The time now, in UTC."""
    return datetime.now(UTC)
