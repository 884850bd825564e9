"""Conceding (W15) and the Hearthlog rulings around it (H1, H2, H5, H6, H7)."""

from __future__ import annotations

from wick_ember_scripts import TWO_WARDENS_UP, three_seats_to_the_last_card
from wick_ember_support import Table, card_names, stacked

from domain.core.decider import Concede
from domain.core.errors import NotYourTurn
from domain.wick_ember import GAME
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.events import (
    DawnBroke,
    NightBegan,
    NightEnded,
    RoundDealt,
    RoundWon,
    SeatConceded,
    SetAsideRevealed,
    TurnBegan,
)
from domain.wick_ember.outcome import placements

WARDEN_ROUND = stacked("moth_duchess", ("lamp_warden", "gale", "lensmaker"), ("veilkeeper",))


def test_w15_given_another_seats_turn_when_a_seat_concedes_then_its_hand_goes_to_the_ash_and_the_turn_stays():
    """W15: conceding is allowed at any time; the flame goes out at once, face up."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    events = table.concede(1)
    assert [type(e) for e in events] == [SeatConceded] and events[0].revealed == (7,)
    seat = table.view(None).seats[1]
    assert seat.conceded and not seat.lit and table.view(None).ash == ("gale",)
    assert table.view(None).turn == 0
    assert "Bryn concedes the match; the Gale goes to the ash." in table.lines()


def test_w15_given_a_conceded_seat_then_it_can_neither_play_nor_concede_again():
    """W15: a conceded seat takes no further part."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    table.concede(1)
    assert table.refuses(1, PlayCard(card="gale"), NotYourTurn) == "you have conceded this match"
    assert table.refuses(1, Concede(), NotYourTurn) == "you have conceded this match"
    assert table.legal(1) == []


def test_h2_h1_given_a_conceded_seat_then_later_rounds_skip_it_and_keep_the_tables_deck_and_set_asides():
    """H2: no card and no turn for a conceded seat; H1: deck and set-asides follow the seat count at creation."""
    second = stacked("hearthflame", ("moth_duchess", "gale"), ("lensmaker", "lamp_warden"))
    table = Table(3, rounds=(WARDEN_ROUND, second))
    table.concede(1)
    table.play(0, "lamp_warden", target=2, guess="lensmaker")
    dealt = table.last(RoundDealt)
    assert dealt.round == 2 and dealt.hands[1] is None and dealt.face_up == ()
    assert card_names(dealt.hands) == ["moth_duchess", None, "gale"]
    assert len(dealt.draw_pile) == 16 - 1 - 2 and table.events[0].deck == "standard"
    table.play(0, "moth_duchess")
    assert table.view(None).turn == 2


def test_h1_given_a_three_seat_table_down_to_two_seats_in_then_no_face_up_cards_are_set_aside():
    """H1: a three-seat table with one conceded seat gets no face-up set-asides (the deal round checks too)."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    table.concede(2)
    table.play(0, "lamp_warden", target=1, guess="gale")
    dealt = table.last(RoundDealt)
    assert dealt.round == 2 and dealt.face_up == () and dealt.hands[2] is None


def test_h5_given_its_own_turn_when_a_seat_concedes_then_its_turn_ends_and_the_next_lit_seat_plays():
    """H5: a concession on your own turn ends the turn; both cards go face up to the ash."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    events = table.concede(0)
    assert isinstance(events[0], SeatConceded)
    assert card_names(events[0].revealed) == ["lamp_warden", "veilkeeper"]
    assert isinstance(events[1], TurnBegan) and events[1].seat == 1
    assert table.view(None).ash == ("lamp_warden", "veilkeeper")


def test_h5_given_the_last_card_drawn_when_that_seat_concedes_then_the_end_of_round_checks_run_and_dawn_breaks():
    """H5: the end-of-turn checks follow a concession on your own turn: the deck is empty, so dawn."""
    table = three_seats_to_the_last_card()
    assert table.view(None).deck_size == 0 and table.view(None).turn == 1
    table.concede(1)
    assert card_names(table.last(DawnBroke).revealed) == ["gale", None, "gale"]
    assert table.last(RoundWon).winners == (0, 2)


def test_h6_given_a_concession_that_leaves_one_lit_flame_then_that_seat_wins_the_round():
    """H6 (W15): the last lit flame wins the round and banks an ember; the others play on."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    table.play(0, "lamp_warden", target=1, guess="gale")
    table.concede(0)
    assert table.last(RoundWon).winners == (2,) and table.view(None).seats[2].embers == 1
    assert GAME.outcome(table.state) is None
    dealt = table.last(RoundDealt)
    assert dealt.opener == 2 and dealt.hands[0] is None and dealt.hands[1] is not None


def test_w15_h6_given_two_seats_when_one_concedes_then_the_other_wins_the_round_and_the_match():
    """W15: when one seat is left it wins the match, below the ember target too."""
    quiet = stacked("gale", ("veilkeeper", "lensmaker"), ("moth_duchess",), TWO_WARDENS_UP)
    table = Table(2, rounds=(quiet,))
    events = table.concede(1)
    assert [type(e) for e in events] == [SeatConceded, RoundWon, SetAsideRevealed, NightEnded]
    outcome = GAME.outcome(table.state)
    assert outcome is not None
    assert (outcome.winners, outcome.scores, outcome.placements) == ((0,), (1, 0), (1, 2))
    assert table.lines()[-1] == "Ash wins the night."


def test_w15_given_a_snuffed_seat_when_it_concedes_then_no_card_moves_and_play_goes_on():
    """W15: a seat already snuffed this round may still concede; its ash stays as it was."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    table.play(0, "lamp_warden", target=1, guess="gale")
    events = table.concede(1)
    assert events == [SeatConceded(seat=1, revealed=())]
    assert table.view(None).ash == ("gale",) and table.view(None).turn == 2
    assert "Bryn concedes the match." in table.lines()


def test_h7_placements_put_the_winners_first_then_rank_the_rest_by_embers():
    """H7: winners share first place; the others follow by embers in competition ranking."""
    assert placements((2, 3, 0, 3), (0,)) == (1, 2, 4, 2)
    assert placements((3, 1, 3, 0), (0, 2)) == (1, 3, 1, 4)
    assert placements((1, 2), (0,)) == (1, 2)


def test_setup_events_open_with_the_table_and_name_every_seat():
    """The first event carries names, deck and target so the state is self-contained."""
    table = Table(4, rounds=(stacked("gale", ("gale",)),))
    first = table.events[0]
    assert isinstance(first, NightBegan) and first.names == ("Ash", "Bryn", "Cato", "Dell")
    assert (first.deck, first.ember_target) == ("standard", 4)
