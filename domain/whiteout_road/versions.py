"""The rules versions of Whiteout Road: the switches that differ between them (docs/rules).

A match is played, replayed and verified under the version it was created with, forever, so a
version is never changed once released: a correction is a new version with its own switches.
"""

from __future__ import annotations

import msgspec


class Ruleset(msgspec.Struct, frozen=True, kw_only=True):
    """One rules version: its number and each rule it switches."""

    version: str
    # R9: "a tie pays each the full +5", a tie at zero cards too; version 1 followed H8 instead
    # (the Long Watch needs a watch-pile: with every pile empty, nobody gets it).
    long_watch_at_zero: bool


V1 = Ruleset(version="1", long_watch_at_zero=False)
V2 = Ruleset(version="2", long_watch_at_zero=True)
