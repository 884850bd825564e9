"""Conjuring costs (E3): whether a handful of wizard cards makes the sets a cost names.

Each named set is one rule over the numbered cards among it, with Archmages filling in for any
card; a cost of several sets is met when the cards split into those sets, every card used once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import combinations

from domain.ember.cards import ARCHMAGE, ELEMENTS, SETS, Need, element_of, number_of


def fits(need: Need, cards: tuple[str, ...]) -> bool:
    """Whether these cards (shown names, 'archmage' wild) are exactly the set a need names."""
    rule = SETS[need.set]
    if len(cards) != rule.size:
        return False
    real = [card for card in cards if card != ARCHMAGE]
    numbers = [number_of(card) for card in real]
    elements = {element_of(card) for card in real}
    if need.element is not None and elements - {need.element}:
        return False
    match rule.rule:
        case "same_number":
            return len(set(numbers)) <= 1
        case "run":
            return _run(numbers, rule.size)
        case "same_element":
            return len(elements) <= 1
        case "each_element":
            return len(elements) == len(real) and len(ELEMENTS) == rule.size
        case "element_run":
            return len(elements) <= 1 and _run(numbers, rule.size)
    return False


def _run(numbers: list[int | None], size: int) -> bool:
    """Distinct numbers that fit in one window of ``size`` consecutive numbers (wilds fill it)."""
    known = [n for n in numbers if n is not None]
    return len(set(known)) == len(known) and (not known or max(known) - min(known) < size)


def size_of(cost: tuple[Need, ...]) -> int:
    """How many wizard cards a cost takes."""
    return sum(SETS[need.set].size for need in cost)


@functools.lru_cache(maxsize=65536)
def pays(cost: tuple[Need, ...], cards: tuple[str, ...]) -> bool:
    """Whether the cards (sorted shown names) split exactly into the cost's sets."""
    if not cost:
        return not cards
    if len(cards) != size_of(cost):
        return False
    first, rest = cost[0], cost[1:]
    for chosen in _splits(cards, SETS[first.set].size):
        left = list(cards)
        for card in chosen:
            left.remove(card)
        if fits(first, chosen) and pays(rest, tuple(left)):
            return True
    return False


def _splits(cards: tuple[str, ...], size: int) -> Iterator[tuple[str, ...]]:
    """Each distinct choice of ``size`` of the cards."""
    yield from dict.fromkeys(combinations(cards, size))


def payments(cost: tuple[Need, ...], hand: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct handful from a hand (shown names) that pays a cost, sorted."""
    size = size_of(cost)
    chosen = dict.fromkeys(combinations(sorted(hand), size))
    return sorted(cards for cards in chosen if pays(cost, cards))
