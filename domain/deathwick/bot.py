"""Deathwick's wary bot: it clears what would possess it and haunts where Salt is least likely.

It decides from its seat's view only (docs/rules/deathwick.md, "Bots"): its hand, every Shadow,
its Sight snapshots. Every game also has the random bot (domain.core.bots).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.core.reactions import Allow
from domain.core.rng import Stream
from domain.deathwick import cards
from domain.deathwick.commands import (
    Banish,
    CancelHaunt,
    CastCard,
    DiscardCard,
    Haunt,
    Panic,
    PassRitual,
    ThrowSalt,
)
from domain.deathwick.siphon import siphons
from domain.deathwick.versions import LATEST


def wary(view: Any, actions: list[Any], stream: Stream) -> Any:
    """Answer with Salt or a cancel, keep Salt in the Burden, clear a suit near possession, then
    haunt a neighbour not known to hold Salt, toward its own possession."""
    if any(isinstance(a, Allow) for a in actions):
        return _answer(actions)
    if all(isinstance(a, DiscardCard) for a in actions):
        return _discard(actions)
    me = view.players[view.you]
    threatened = _crowded(me.shadow)
    for pick in (_clearing(actions, threatened), _siphons(actions), _haunts(view, actions)):
        if pick:
            return stream.choice(pick)
    useful = [a for a in actions if not isinstance(a, PassRitual | Panic) and _harmless(a)]
    return stream.choice(useful or actions)


def _answer(actions: list[Any]) -> Any:
    """Cancel for free first, then Salt, else allow."""
    for kind in (CancelHaunt, ThrowSalt):
        found = [a for a in actions if isinstance(a, kind)]
        if found:
            return found[0]
    return Allow()


def _discard(actions: list[DiscardCard]) -> DiscardCard:
    """The lowest card that is not a Salt."""
    def keep(action: DiscardCard) -> tuple[int, int]:
        card = cards.codes().index(action.card)
        return (cards.rank(card) == cards.SALT, cards.value(card) or 11)
    return min(actions, key=keep)


def _crowded(shadow: tuple[Any, ...]) -> set[str]:
    """Suits with two or more ghosts in the Shadow (one more possesses)."""
    counts = Counter(ghost.card[-1] for ghost in shadow)
    return {suit for suit, count in counts.items() if count >= 2}


def _clearing(actions: list[Any], suits: set[str]) -> list[Any]:
    """Actions that take a ghost of a crowded suit out of the bot's own Shadow."""
    if not suits:
        return []
    found: list[Any] = [a for a in actions if isinstance(a, Banish) and a.ghost[-1] in suits]
    found += [a for a in actions if isinstance(a, CastCard) and a.ghost and a.ghost[-1] in suits
              and (a.card.startswith(("7", "9")) or (a.card.startswith("8") and a.target is None))]
    found += [a for a in actions if isinstance(a, CastCard) and a.card.startswith("K")]
    return found


def _siphons(actions: list[Any]) -> list[Any]:
    """Banishes that heal, as the latest rules Siphon (siphon.py): a preference, so in a version
    1 match it may miss a face ghost's heal."""
    def heals(action: Banish) -> bool:
        card, ghost = cards.codes().index(action.card), cards.codes().index(action.ghost)
        return siphons(LATEST, "banish", card, ghost)
    return [a for a in actions if isinstance(a, Banish) and heals(a)]


def _haunts(view: Any, actions: list[Any]) -> list[Any]:
    """Haunts, never into a neighbour seen holding Salt while another target exists; toward a
    suit the target already has two of."""
    haunts = [a for a in actions if isinstance(a, Haunt)]
    salted = {s.target for s in view.sights if any(c.startswith("5") for c in s.cards)}
    safe = [a for a in haunts if a.target not in salted] or haunts
    deadly = [a for a in safe if a.card[-1] in _crowded(view.players[a.target].shadow)]
    return deadly or safe


def _harmless(action: Any) -> bool:
    """Not a Possess or Mirror that could bring ghosts back (kept simple)."""
    card = getattr(action, "card", "")
    return not (isinstance(action, CastCard) and card.startswith("J") and card != "JOKER")


BOTS = {"wary": wary}
