"""The named sets of E3, an Archmage standing for any card, and costs of two sets."""

from __future__ import annotations

import pytest

from domain.ember.cards import Need
from domain.ember.costs import fits, payments, pays


@pytest.mark.parametrize(("name", "cards", "made"), [
    ("pair", ("fire-7", "water-7"), True),
    ("pair", ("fire-7", "water-8"), False),
    ("pair", ("fire-7", "archmage"), True),
    ("trio", ("air-2", "earth-2", "fire-2"), True),
    ("trio", ("air-2", "earth-2", "fire-3"), False),
    ("run3", ("air-4", "fire-5", "water-6"), True),
    ("run3", ("air-4", "fire-5", "water-7"), False),
    ("run3", ("air-4", "archmage", "water-6"), True),
    ("run3", ("air-4", "fire-4", "archmage"), False),
    ("run4", ("air-10", "fire-11", "water-12", "earth-13"), True),
    ("coven3", ("fire-1", "fire-9", "fire-13"), True),
    ("coven3", ("fire-1", "fire-9", "air-13"), False),
    ("coven4", ("water-1", "water-2", "archmage", "water-13"), True),
    ("quartet", ("air-1", "earth-9", "fire-4", "water-4"), True),
    ("quartet", ("air-1", "air-9", "fire-4", "water-4"), False),
    ("quartet", ("air-1", "archmage", "fire-4", "water-4"), True),
    ("circle3", ("earth-3", "earth-4", "earth-5"), True),
    ("circle3", ("earth-3", "fire-4", "earth-5"), False),
    ("circle4", ("earth-3", "archmage", "archmage", "earth-6"), True),
    ("pair", ("fire-7",), False),
])
def test_e3_each_named_set_is_exactly_its_cards_an_archmage_standing_for_any(name, cards, made):
    assert fits(Need(set=name), cards) is made


def test_e3_a_set_bound_to_an_element_takes_only_that_element_and_archmages():
    need = Need(set="coven4", element="fire")
    assert fits(need, ("archmage", "fire-1", "fire-2", "fire-9"))
    assert not fits(need, ("water-1", "water-2", "water-3", "water-9"))


def test_e3_a_cost_of_two_sets_splits_the_cards_paid_into_both():
    cost = (Need(set="trio"), Need(set="pair"))
    assert pays(cost, ("air-2", "earth-9", "fire-2", "water-2", "water-9"))
    assert not pays(cost, ("air-2", "earth-9", "fire-2", "water-3", "water-9"))
    assert pays(cost, ("air-2", "archmage", "earth-9", "fire-2", "water-9"))
    assert not pays(cost, ("air-2", "archmage", "earth-9", "fire-2", "water-5"))


def test_e3_payments_lists_each_distinct_handful_of_a_hand_that_pays():
    hand = ("air-2", "fire-2", "water-2", "archmage")
    assert payments((Need(set="pair"),), hand) == [
        ("air-2", "archmage"), ("air-2", "fire-2"), ("air-2", "water-2"),
        ("archmage", "fire-2"), ("archmage", "water-2"), ("fire-2", "water-2")]


def _every_handful(cost, hand):
    """Brute force: every combination of the hand's cards that pays."""
    from itertools import combinations

    from domain.ember.costs import size_of

    return sorted({c for c in combinations(sorted(hand), size_of(cost)) if pays(cost, c)})


def test_e3_payments_finds_exactly_the_handfuls_brute_force_finds_on_random_hands():
    import random

    from domain.ember.cards import CARDS, WIZARD_CARDS, shown

    chooser, deck = random.Random(3), [shown(c) for c in WIZARD_CARDS]
    costs = sorted({card.cost for card in CARDS.values()}, key=str)
    for _ in range(150):
        hand = tuple(chooser.sample(deck, chooser.randint(2, 8)))
        for cost in costs:
            assert payments(cost, hand) == _every_handful(cost, hand), (cost, hand)
