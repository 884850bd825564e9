"""Conjuring costs (E3): whether a handful of wizard cards makes the sets a cost names.

Each named set is one rule over the numbered cards among it, with Archmages filling in for any
card; a cost of several sets is met when the cards split into those sets, every card used once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import combinations, product

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
    """Every distinct handful from a hand (shown names) that pays a cost, sorted.

    Built set by set from the candidates each rule allows (so a large hand costs little more
    than a small one), and each handful checked by ``pays``.
    """
    found: set[tuple[str, ...]] = set()
    for chosen in _handfuls(cost, tuple(sorted(hand))):
        if pays(cost, chosen):
            found.add(chosen)
    return sorted(found)


def _handfuls(cost: tuple[Need, ...], hand: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Candidate handfuls for a cost: one candidate of its first set, then of the rest."""
    if not cost:
        yield ()
        return
    for first in set(_candidates(cost[0], hand)):
        left = list(hand)
        for card in first:
            left.remove(card)
        for rest in _handfuls(cost[1:], tuple(left)):
            yield tuple(sorted(first + rest))


def _candidates(need: Need, hand: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Handfuls that may make one set: cards grouped as its rule groups them, Archmages filling."""
    rule, wild = SETS[need.set], [card for card in hand if card == ARCHMAGE]
    real = [c for c in hand if c != ARCHMAGE and need.element in (None, element_of(c))]
    match rule.rule:
        case "same_number" | "same_element":
            key = number_of if rule.rule == "same_number" else element_of
            groups = {key(card) for card in real}
            for value in groups or {None}:
                group = [card for card in real if key(card) == value]
                yield from _with_wilds(group, wild, rule.size)
        case "run" | "element_run":
            elements = ELEMENTS if rule.rule == "element_run" else (None,)
            for element in elements:
                cards = [c for c in real if element in (None, element_of(c))]
                for low in range(1, 15 - rule.size):
                    slots = [[c for c in cards if number_of(c) == n] + [ARCHMAGE]
                             for n in range(low, low + rule.size)]
                    yield from _filled(slots, len(wild))
        case "each_element":
            slots = [[c for c in real if element_of(c) == e] + [ARCHMAGE] for e in ELEMENTS]
            yield from _filled(slots, len(wild))


def _with_wilds(group: list[str], wild: list[str], size: int) -> Iterator[tuple[str, ...]]:
    """``size`` cards of one group, some of them Archmages."""
    for wilds in range(min(len(wild), size) + 1):
        for chosen in combinations(group, size - wilds):
            yield chosen + (ARCHMAGE,) * wilds


def _filled(slots: list[list[str]], wilds: int) -> Iterator[tuple[str, ...]]:
    """One card for each slot (an Archmage for any), using no more Archmages than held."""
    for chosen in product(*slots):
        if chosen.count(ARCHMAGE) <= wilds:
            yield chosen
