"""How often a random five-card hand pays a cost: E3's "costs grow with VP", measured.

A fixed sample of 4,000 hands dealt from the 55 wizard cards (Python's random, seeded: this is a
measurement for tests and docs, never play).
"""

from __future__ import annotations

import functools
import random

from domain.ember.cards import WIZARD_CARDS, Need, shown
from domain.ember.costs import payments

SAMPLE = 4000


@functools.cache
def hands() -> tuple[tuple[str, ...], ...]:
    """The sample of hands, shown names."""
    chooser, deck = random.Random(15), [shown(card) for card in WIZARD_CARDS]
    return tuple(tuple(chooser.sample(deck, 5)) for _ in range(SAMPLE))


@functools.cache
def odds(cost: tuple[Need, ...]) -> float:
    """The share of sampled hands that pay the cost."""
    return sum(1 for hand in hands() if payments(cost, hand)) / SAMPLE
