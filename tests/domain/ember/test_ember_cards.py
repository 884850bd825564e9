"""The card set (E2, E3, E4): one table, of the shape the rulings ask, every card well formed."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from math import comb

import pytest

from domain.ember import VERSIONS
from domain.ember.cards import (
    ARTIFACTS,
    CARDS,
    CREATURES,
    DRAGON_PARTS,
    DRAGONS,
    ELEMENTS,
    SETS,
    TUTORS,
    WIZARD_CARDS,
    Need,
    card_set,
)
from domain.ember.costs import fits, size_of
from domain.ember.effects import EXHAUST_EFFECTS, ONGOING_EFFECTS
from tests.domain.ember import odds as counting
from tests.domain.ember.odds import HANDS, counted_costs, hands

RULES = pytest.mark.parametrize("rules", [book.rules_version for book in VERSIONS])


def test_e1_the_draw_deck_is_52_numbered_wizard_cards_and_three_archmages():
    numbered = [c for c in WIZARD_CARDS if not c.startswith("archmage")]
    assert len(WIZARD_CARDS) == len(set(WIZARD_CARDS)) == 55
    assert Counter(c.split("-")[0] for c in numbered) == {e: 13 for e in ELEMENTS}


@RULES
def test_e2_the_pool_is_13_vp_groups_of_three_creatures(rules):
    cards = card_set(rules).cards
    assert len(CREATURES) == 39
    assert Counter(cards[c].group for c in CREATURES) == {vp: 3 for vp in range(1, 14)}


def test_e2_spectrals_have_negative_vp_and_every_other_creature_positive():
    spectral = [CARDS[c] for c in CREATURES if CARDS[c].spectral]
    assert spectral and all(card.vp < 0 for card in spectral)
    assert all(CARDS[c].vp > 0 for c in CREATURES if not CARDS[c].spectral)


def test_e2_four_elemental_dragons_each_a_tail_a_body_and_a_head():
    assert sorted(d.element for d in DRAGONS.values()) == list(ELEMENTS)
    assert len(DRAGON_PARTS) == 12
    for dragon in DRAGONS.values():
        parts = [CARDS[p] for p in dragon.parts]
        assert [p.part for p in parts] == [1, 2, 3]
        assert [p.name.split()[0] for p in parts] == ["Tail", "Body", "Head"]
        assert parts[0].vp < parts[1].vp < parts[2].vp
        assert dragon.legendary.kind == "exhaust"


def test_e2_five_artifacts_and_seven_tutors():
    assert len(ARTIFACTS) == 5 and len(TUTORS) == 7


def test_every_card_has_a_name_of_its_own():
    names = [CARDS[c].name for c in CARDS] + [t.name for t in TUTORS.values()]
    assert len(names) == len(set(names))


@RULES
def test_e3_every_cost_names_the_defined_sets_and_fits_a_hand(rules):
    for card in card_set(rules).cards.values():
        assert card.cost, card.id
        assert all(need.set in SETS for need in card.cost)
        assert size_of(card.cost) <= 5, card.id


def test_a_later_version_changes_only_vp_costs_and_abilities_never_who_a_card_is():
    """Ids, names, kinds, elements and the dragons' parts are the same in every version (CARDS,
    version 1's records, answers them for every match)."""
    for book in VERSIONS:
        cards = card_set(book.rules_version)
        assert list(cards.cards) == list(CARDS) and list(cards.tutors) == list(TUTORS)
        for card in cards.cards.values():
            first = CARDS[card.id]
            assert (card.name, card.kind, card.element, card.spectral, card.dragon, card.part) == (
                first.name, first.kind, first.element, first.spectral, first.dragon, first.part)
            assert (card.vp < 0) == (first.vp < 0)


@RULES
def test_e3_costs_grow_with_vp_every_cost_of_a_group_rarer_than_every_cost_of_the_group_below(
    rules,
):
    """Going up the Pool, every creature's cost is paid by fewer five-card hands than any cost of
    the group below, counted over every hand (shares.toml; the Phoenix's Spellbook, the rarest,
    is why version 2 puts it at VP 13)."""
    cards = card_set(rules).cards
    groups = [[hands(cards[c].cost) for c in CREATURES if cards[c].group == vp]
              for vp in range(1, 14)]
    assert all(len(group) == 3 for group in groups)
    for lower, upper in pairwise(groups):
        assert max(upper) < min(lower), (lower, upper)
    assert min(groups[-1]) < max(groups[0]) / 20


def test_the_phoenix_costs_a_spellbook_four_of_one_number_as_the_rulebook_says():
    """Rules version 2, the rulebook: 'The Phoenix requires a "Spellbook" to Conjure, which is
    any four of the same wizard' (version 1's Phoenix cost a circle3 and a pair)."""
    spellbook = Need(set="spellbook")
    assert card_set("2").cards["phoenix_of_cinders"].cost == (spellbook,)
    assert CARDS["phoenix_of_cinders"].cost == (Need(set="circle3"), Need(set="pair"))
    assert fits(spellbook, ("air-9", "earth-9", "fire-9", "water-9"))
    assert fits(spellbook, ("air-9", "archmage", "fire-9", "water-9"))
    assert not fits(spellbook, ("air-9", "earth-9", "fire-9", "water-8"))


def test_e3_every_cost_of_every_version_has_its_count_of_paying_hands():
    """When this fails: python -m tests.domain.ember.odds --write."""
    for cost in counted_costs():
        assert 0 < hands(cost) < HANDS, cost


def test_e3_the_counts_agree_with_a_pair_counted_by_hand():
    """A hand pays no pair only with five different numbers and no Archmage: C(13, 5) choices
    of numbers, four elements each."""
    assert HANDS == comb(55, 5) == 3_478_761
    assert hands((Need(set="pair"),)) == HANDS - comb(13, 5) * 4 ** 5


@pytest.mark.slow
def test_e3_counting_every_hand_again_gives_the_kept_counts():
    """The counts in shares.toml are what the engine's own ``pays`` finds over every hand."""
    assert counting.shares_toml(counting.count(counted_costs())) == counting.SHARES.read_text(
        "utf-8")


def test_e4_every_creature_dragon_part_and_artifact_has_an_ability_of_the_vocabulary():
    for card in CARDS.values():
        kinds = [a.kind for a in card.abilities]
        if card.kind == "artifact":
            assert kinds == ["ongoing", "exhaust", "drain"], card.id
        else:
            assert len(kinds) == 1 and kinds[0] in ("exhaust", "ongoing"), card.id
        for ability in card.abilities:
            allowed = ONGOING_EFFECTS if ability.kind == "ongoing" else EXHAUST_EFFECTS
            assert ability.effect in allowed, (card.id, ability)


def test_e4_every_tutor_is_a_score_modifier():
    assert all(t.ability.effect == "score" and t.ability.vp > 0 for t in TUTORS.values())
