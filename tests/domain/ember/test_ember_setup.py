"""Setup and the Pool (E1, E2): the deck, the deal, the tutors, the artifacts, the reveals."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.core.errors import RuleViolation
from domain.ember.cards import CARDS, WIZARD_CARDS
from domain.ember.commands import Draw, EndTurn
from domain.ember.events import DeckReshuffled, GroupRevealed
from domain.ember.options import Options, check_options
from tests.domain.ember.ember_support import Table


def end(table: Table, seat: int) -> None:
    """The seat ends its turn at once (discarding the first cards it must)."""
    hand = sorted(table.board.seats[seat].hand)
    excess = max(0, len(hand) - 5)
    table.send(seat, EndTurn(discard=tuple(hand[:excess])))


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_e1_five_cards_each_from_the_55_and_the_rest_is_the_draw_deck(seats):
    table = Table(seats=seats)
    assert all(len(w.hand) == 5 for w in table.board.seats)
    assert len(table.board.deck) == 55 - 5 * seats
    assert Counter(table.wizard_cards()) == Counter(WIZARD_CARDS)


@pytest.mark.parametrize("seats", [2, 5])
def test_e2_three_artifacts_dealt_and_a_different_tutor_for_each_seat(seats):
    table = Table(seats=seats)
    assert len(table.board.artifacts) == len(set(table.board.artifacts)) == 3
    tutors = [w.tutor for w in table.board.seats]
    assert len(set(tutors)) == seats


def test_e1_a_practice_deck_puts_its_cards_on_top_and_deals_them_in_seat_order():
    deck = ["fire-1", "fire-2", "fire-3", "fire-4", "fire-5", "air-1", "air-2", "air-3",
            "air-4", "archmage", "water-13"]
    table = Table(deck=deck)
    assert table.hand(0) == ("fire-1", "fire-2", "fire-3", "fire-4", "fire-5")
    assert table.hand(1) == ("air-1", "air-2", "air-3", "air-4", "archmage-1")
    assert table.board.deck[0] == "water-13"


def test_e2_vp_1_to_6_start_face_up_and_the_first_player_reveals_one_group_a_turn_after_its_first():
    table = Table(seats=2)
    assert table.board.face_up == 6
    for expected in range(7, 14):
        end(table, 0)
        end(table, 1)
        assert table.last(GroupRevealed).vp == expected == table.board.face_up
    end(table, 0)
    end(table, 1)
    assert table.count(GroupRevealed) == 7  # all face up at the first player's 8th turn


def test_e2_face_down_groups_cannot_be_conjured():
    table = Table()
    offered = [c for c in table.board.pool if CARDS[c].group <= table.board.face_up]
    assert all(CARDS[c].group <= 6 for c in offered)
    assert not any(a.card == "starfall_serpent" for a in table.legal(0) if hasattr(a, "paid"))


def test_e1_an_empty_draw_deck_takes_the_charred_pile_shuffled_by_the_seeded_generator():
    table = Table()
    table.next_round()
    table.give(0, "fire-1", "fire-2", "fire-3", "fire-4")
    rest = table.board.deck
    table.char(*rest[:-1])  # one card left in the deck
    table.send(0, Draw())
    table.send(0, EndTurn())
    assert table.count(DeckReshuffled) == 0
    end(table, 1)
    assert not table.board.deck
    table.send(0, Draw(recycle="fire-1"))
    shuffled = table.last(DeckReshuffled).deck
    assert sorted(shuffled) == sorted((*rest[:-1], "fire-1"))
    assert Counter(table.wizard_cards()) == Counter(WIZARD_CARDS)


@pytest.mark.parametrize(("options", "message"), [
    ({"call_at": 19}, "call_at must be 20 to 100"),
    ({"call_at": 101}, "call_at must be 20 to 100"),
    ({"turn_cap": 9}, "turn_cap must be 10 to 100"),
    ({"deck": ["fire-1"]}, "only allowed at a practice table"),
])
def test_e9_options_out_of_range_or_practice_only_are_refused_by_name(options, message):
    with pytest.raises(RuleViolation, match=message):
        check_options(Options(**options), 3, False)


@pytest.mark.parametrize(("options", "message"), [
    ({"deck": ["fire-14"]}, "not a wizard card"),
    ({"deck": ["fire-1", "fire-1"]}, "there are 1"),
    ({"deck": ["archmage"] * 4}, "there are 3"),
    ({"tutors": ["artificer"]}, "must be 2 different cards"),
    ({"tutors": ["artificer", "nobody"]}, "not one of ours"),
    ({"artifacts": ["cinder_crown", "cinder_crown", "urn_of_embers"]}, "3 different"),
    ({"face_up": 5}, "face_up must be 6 to 13"),
    ({"first": 2}, "first must be a seat from 0 to 1"),
])
def test_a_practice_script_that_does_not_fit_is_refused_by_name(options, message):
    with pytest.raises(RuleViolation, match=message):
        check_options(Options(**options), 2, True)
