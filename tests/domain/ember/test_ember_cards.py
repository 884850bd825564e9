"""The card set (E2, E3, E4): one table, of the shape the rulings ask, every card well formed."""

from __future__ import annotations

from collections import Counter

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
)
from domain.ember.costs import size_of
from domain.ember.effects import EXHAUST_EFFECTS, ONGOING_EFFECTS
from tests.domain.ember.odds import odds


def test_e1_the_draw_deck_is_52_numbered_wizard_cards_and_three_archmages():
    numbered = [c for c in WIZARD_CARDS if not c.startswith("archmage")]
    assert len(WIZARD_CARDS) == len(set(WIZARD_CARDS)) == 55
    assert Counter(c.split("-")[0] for c in numbered) == {e: 13 for e in ELEMENTS}


def test_e2_the_pool_is_13_vp_groups_of_three_creatures():
    assert len(CREATURES) == 39
    assert Counter(CARDS[c].group for c in CREATURES) == {vp: 3 for vp in range(1, 14)}


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


def test_e3_every_cost_names_the_defined_sets_and_fits_a_hand():
    for card in CARDS.values():
        assert card.cost, card.id
        assert all(need.set in SETS for need in card.cost)
        assert size_of(card.cost) <= 5, card.id


def test_e3_costs_grow_with_vp_each_groups_cost_rarer_in_a_hand_than_the_group_belows():
    """The three creatures of a group share one cost; going up the Pool each group's cost is
    paid by fewer random five-card hands than the cost below (tests/domain/ember/odds.py)."""
    costs = []
    for vp in range(1, 14):
        group = {CARDS[c].cost for c in CREATURES if CARDS[c].group == vp}
        assert len(group) == 1, vp
        costs.append(group.pop())
    chances = [odds(cost) for cost in costs]
    assert chances == sorted(chances, reverse=True)
    assert len(set(costs)) == 13 and chances[-1] < chances[0] / 20


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
