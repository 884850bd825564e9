"""How many five-card hands pay a cost: E3's "costs grow with VP", counted exactly.

Every one of the C(55, 5) = 3,478,761 hands dealt from the 55 wizard cards is counted, none
sampled: the hands are grouped into classes alike up to renaming the four elements (a cost that
names no element cannot tell them apart), about 153,000 classes, each weighed by how many hands
it stands for and checked once by the engine's own ``pays``. That takes about a minute, so the
counts are kept in shares.toml, which the rules page and the tests read:

    .venv/bin/python -m tests.domain.ember.odds --write

rewrites it for every cost that names no element in every rules version's card set;
test_ember_cards.py checks that each such cost has its count (and a slow test counts again).
"""

from __future__ import annotations

import functools
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable
from itertools import combinations
from math import comb
from pathlib import Path

from domain.ember import VERSIONS
from domain.ember.cards import ARCHMAGE, ELEMENTS, NUMBERS, Need, card_set, cost_text
from domain.ember.costs import pays, size_of

HAND = 5
ARCHMAGES = 3
NUMBERED = len(ELEMENTS) * len(NUMBERS)  # 52
HANDS = comb(NUMBERED + ARCHMAGES, HAND)  # 3,478,761
SHARES = Path(__file__).with_name("shares.toml")

Cost = tuple[Need, ...]
Class = tuple[int, tuple[int, ...]]  # Archmages held, and each element's numbers as a bit mask


def classes() -> Counter[Class]:
    """Every hand, as its class (Archmages, the elements' masks sorted) and the hands in it."""
    found: Counter[Class] = Counter()
    for archmages in range(ARCHMAGES + 1):
        ways = comb(ARCHMAGES, archmages)
        for numbered in combinations(range(NUMBERED), HAND - archmages):
            masks = [0] * len(ELEMENTS)
            for card in numbered:
                masks[card // len(NUMBERS)] |= 1 << (card % len(NUMBERS))
            found[(archmages, tuple(sorted(masks)))] += ways
    return found


def hand_of(kind: Class) -> tuple[str, ...]:
    """One hand of the class, as shown names, sorted (the elements in their order)."""
    archmages, masks = kind
    cards = [f"{element}-{number}" for element, mask in zip(ELEMENTS, masks) for number in NUMBERS
             if mask >> (number - 1) & 1]
    return tuple(sorted(cards + [ARCHMAGE] * archmages))


def pays_from(cost: Cost, hand: tuple[str, ...]) -> bool:
    """Whether some of the hand's cards pay the cost (the engine's ``pays``)."""
    return any(pays(cost, chosen) for chosen in dict.fromkeys(combinations(hand, size_of(cost))))


def count(costs: Iterable[Cost]) -> dict[Cost, int]:
    """How many of all the five-card hands pay each cost, counted exactly."""
    wanted = list(costs)
    if any(need.element is not None for cost in wanted for need in cost):
        raise ValueError("only costs that name no element are counted by class")
    totals = dict.fromkeys(wanted, 0)
    for kind, hands in classes().items():
        hand = hand_of(kind)
        for cost in wanted:
            if pays_from(cost, hand):
                totals[cost] += hands
    return totals


def counted_costs() -> list[Cost]:
    """Every cost that names no element in any rules version's card set."""
    costs = {card.cost for book in VERSIONS for card in card_set(book.rules_version).cards.values()
             if all(need.element is None for need in card.cost)}
    return sorted(costs, key=cost_text)


@functools.cache
def kept() -> dict[str, int]:
    """The counts in shares.toml, by cost as cost_text writes it."""
    return dict(tomllib.loads(SHARES.read_text("utf-8"))["hands"])


def hands(cost: Cost) -> int:
    """How many five-card hands pay the cost (shares.toml)."""
    written = cost_text(cost)
    if written not in kept():
        raise KeyError(f"{written!r} has no count in {SHARES.name}: "
                       "run python -m tests.domain.ember.odds --write")
    return kept()[written]


def odds(cost: Cost) -> float:
    """The share of all five-card hands that pay the cost."""
    return hands(cost) / HANDS


def shares_toml(totals: dict[Cost, int]) -> str:
    """shares.toml's text."""
    lines = ["# How many of the 3,478,761 five-card hands of Ember's 55 wizard cards pay each cost,",
             "# counted exactly by tests/domain/ember/odds.py (never edit by hand: run",
             "# python -m tests.domain.ember.odds --write).", "", f"total = {HANDS}", "",
             "[hands]"]
    lines += [f'"{cost_text(cost)}" = {n}' for cost, n in sorted(totals.items(),
                                                                  key=lambda item: -item[1])]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    text = shares_toml(count(counted_costs()))
    if "--write" in sys.argv:
        SHARES.write_text(text, "utf-8")
    else:
        print(text, end="")
