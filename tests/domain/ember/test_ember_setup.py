"""Setup and the Pool (E1, E2): the deck, the deal, the tutors, the artifacts, the reveals."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.core.errors import RuleViolation
from domain.ember.cards import CARDS, WIZARD_CARDS, shown
from domain.ember.commands import Draw, EndTurn
from domain.ember.events import DeckReshuffled, GroupRevealed
from domain.ember.options import Options, check_options
from domain.ember.state import with_wizard
from tests.domain.ember.ember_support import RNG, Table, replace


def end(table: Table, seat: int) -> None:
    """The seat ends its turn at once (discarding the first cards it must)."""
    hand = sorted(shown(card) for card in table.board.seats[seat].hand)
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


def test_e1_version_1_a_draw_that_finds_the_deck_empty_takes_the_charred_pile_shuffled():
    """Version 1 shuffled late: not as the last card was taken, but when a later draw found the
    deck empty (the discards made in between went into the new deck too)."""
    table = Table(version="1")
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


def test_e1_as_the_last_card_is_taken_the_charred_pile_is_shuffled_into_a_new_deck():
    """Rules version 2, the rulebook: 'When the last card in the Draw Deck is taken, shuffle the
    Charred Pile into a new Draw Deck'; the discards that follow stay on the Charred pile."""
    table = Table()
    table.next_round()
    table.give(0, "fire-1", "fire-2", "fire-3", "fire-4")
    rest = table.board.deck
    table.char(*rest[:-1])  # one card left in the deck
    table.send(0, Draw())
    shuffled = table.last(DeckReshuffled).deck
    assert sorted(shuffled) == sorted(rest[:-1]) == sorted(table.board.deck)
    assert table.board.charred == ()
    table.send(0, EndTurn())
    recycled = sorted(table.view(1).hand)[0]
    table.send(1, Draw(recycle=recycled))
    assert [shown(c) for c in table.board.charred] == [recycled]
    assert table.count(DeckReshuffled) == 1
    assert Counter(table.wizard_cards()) == Counter(WIZARD_CARDS)


def test_eh16_a_draw_that_finds_the_deck_empty_shuffles_the_charred_pile_then():
    """Rules version 2: the last card went while the Charred pile was empty, so nothing was
    shuffled then; the next draw shuffles whatever the pile holds by that time."""
    table = Table()
    table.next_round()
    table.give(0, "fire-1", "fire-2", "fire-3", "fire-4")
    s = table.board  # given: Bryn holds all but one card of the deck, the Charred pile empty
    table._set(replace(with_wizard(s, 1, hand=s.seats[1].hand + s.deck[1:]), deck=s.deck[:1]))
    assert table.board.charred == ()
    table.send(0, Draw())
    assert not table.board.deck and table.count(DeckReshuffled) == 0
    table.send(0, EndTurn())
    end(table, 1)
    assert table.board.charred and not table.board.deck
    table.send(0, Draw(recycle="fire-1"))
    assert "fire-1" in table.last(DeckReshuffled).deck
    assert Counter(table.wizard_cards()) == Counter(WIZARD_CARDS)


def test_e2_the_first_players_final_turn_after_the_call_reveals_a_group():
    """Rules version 2, E2: 'at the start of each turn of the first player after its first',
    the final turn after another seat's Call too (version 1 revealed none then)."""
    for version, revealed in (("1", 0), ("2", 1)):
        table = Table(version=version)
        end(table, 0)
        for card in ("starfall_serpent", "world_turtle", "ironbark_ent"):
            table.place(1, card, turned="exhausted")  # 36 VP
        before = table.count(GroupRevealed)
        table.send(1, EndTurn(call=True))
        assert table.board.turn == 0 and table.board.round == 1
        assert table.count(GroupRevealed) - before == revealed, version


@pytest.mark.parametrize("seats", [2, 4])
def test_eh10_seat_0_goes_first_and_seat_i_is_dealt_the_five_cards_from_position_5i(seats):
    shuffled = RNG.stream("deck").shuffle(list(WIZARD_CARDS))
    table = Table(seats=seats)
    assert table.board.first == table.board.turn == 0
    for seat in range(seats):
        assert table.hand(seat) == tuple(shuffled[5 * seat:5 * seat + 5])
    assert table.board.deck == tuple(shuffled[5 * seats:])
