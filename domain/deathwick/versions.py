"""The rules versions of Deathwick: the switches that differ between them (docs/rules/deathwick.md,
"Rules versions").

A match is played, replayed and verified under the version it was formed with, forever: the
setup records it in CircleFormed and the circle keeps it (``Circle.rules_version``), so the
rules, the fold included, read their switches from the table itself. A version is never changed
once released; a correction is a new version with its own switches.
"""

from __future__ import annotations

import msgspec

from domain.deathwick.state import Circle


class Ruleset(msgspec.Struct, frozen=True, kw_only=True):
    """One rules version: its number and each rule it switches."""

    version: str
    # DH17 (D4): in the dark ritual a Panic's flip that empties the Candle consumes at once;
    # version 1 checked after the whole action, so a Siphoned ghost could refill the Candle.
    flip_consumes_at_once: bool
    # DH18 (the FAQ, the tie rule): a face-card ghost is Siphoned only by a 10 of its suit
    # Banishing it or the king of its suit Cast (Purge) on a king ghost; version 1 Siphoned it on
    # any Banish of its suit or rank, on any Purge of a king, on a Panic's rank match or joker.
    face_ghosts_by_the_faq: bool
    # DH19 (D3, DH6): a Mirror leaves the Clown's ghosts where they are, as the Sealbinder's;
    # version 1 carried them across.
    mirror_leaves_clowns: bool


V1 = Ruleset(version="1", flip_consumes_at_once=False, face_ghosts_by_the_faq=False,
             mirror_leaves_clowns=False)
V2 = Ruleset(version="2", flip_consumes_at_once=True, face_ghosts_by_the_faq=True,
             mirror_leaves_clowns=True)
RULESETS = {ruleset.version: ruleset for ruleset in (V1, V2)}
LATEST = V2  # what a new match is played with (game.py registers a Rulebook for each)


def ruleset_of(state: Circle) -> Ruleset:
    """The switches of the rules version the circle was formed under."""
    return RULESETS[state.rules_version]
