"""Siphon (the FAQ, D6, DH18): whether a ghost taken out of a Shadow goes to the bottom of its
owner's Candle instead of The Dark.

The one Siphon rule: every way a ghost is destroyed (a Banish, a Cleanse, a Purge, a Panic)
asks ``siphons`` (effects.py). It lives beside the Grimoire rather than in it because the
Grimoire (grimoire.py) names the effects of effects.py, which ask it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from domain.deathwick import cards
from domain.deathwick.versions import Ruleset

Way = Literal["banish", "cleanse", "purge", "panic"]  # Cleanse is a 7 Cast, Purge a king Cast


def siphons(rules: Ruleset, way: Way, card: int, ghost: int) -> bool:
    """Whether the ghost is Siphoned when ``card`` (a Panic's: the card flipped) destroys it
    this way: never a spade; a face ghost by the FAQ's own paragraph from rules version 2."""
    if cards.suit(ghost) == "S":
        return False
    if cards.is_face(ghost) and rules.face_ghosts_by_the_faq:
        return _face_ghost(way, card, ghost)
    return _BY_WAY[way](card, ghost)


def _face_ghost(way: Way, card: int, ghost: int) -> bool:
    """DH18: only "with a 10, or by Casting the matching face card", and of the ghost's suit:
    a 10 Banishing it, or the king of its suit Cast on a king ghost (a Purge); a jack or queen
    Cast destroys no ghost. Anything else leaves doubt, and doubt goes against the gainer."""
    if cards.suit(card) != cards.suit(ghost):
        return False
    if way == "banish":
        return cards.rank(card) == cards.TEN
    return way == "purge" and cards.rank(ghost) == cards.KING


def _rank_match(card: int, ghost: int) -> bool:
    """The card's rank is the ghost's."""
    return cards.rank(card) == cards.rank(ghost)


def _on_banish(card: int, ghost: int) -> bool:
    """A rank match (version 1: or a face ghost of the card's suit)."""
    return _rank_match(card, ghost) or (cards.is_face(ghost)
                                        and cards.suit(card) == cards.suit(ghost))


def _on_cleanse(card: int, ghost: int) -> bool:
    """The Grimoire's Cleanse: a rank or a suit match."""
    return _rank_match(card, ghost) or cards.suit(card) == cards.suit(ghost)


def _on_purge(card: int, ghost: int) -> bool:
    """The Grimoire's Purge: "if rank matches", so a king ghost."""
    return cards.rank(ghost) == cards.KING


def _on_panic(flipped: int, ghost: int) -> bool:
    """D6 and the FAQ: a rank match, or always a joker flipped."""
    return cards.rank(flipped) == 0 or _rank_match(flipped, ghost)


_BY_WAY: dict[str, Callable[[int, int], bool]] = {
    "banish": _on_banish, "cleanse": _on_cleanse, "purge": _on_purge, "panic": _on_panic}
