"""Round setup (W3), the opener (W4), the end of a round (W13) and of the match (W14)."""

from __future__ import annotations

from wick_ember_scripts import (
    TWO_WARDENS_UP,
    last_flame_on_the_last_card,
    sweep_takes_the_set_aside,
    tied_dawn,
)
from wick_ember_support import PLAYERS, RNG, Table, fold, stacked

from domain.core.errors import WrongPhase
from domain.core.rng import Rng
from domain.wick_ember import GAME
from domain.wick_ember.cards import card_ids, name_of
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.events import (
    DawnBroke,
    NightEnded,
    ReplacementDrawn,
    RoundDealt,
    RoundWon,
    SetAsideRevealed,
    TurnBegan,
)
from domain.wick_ember.observer import DawnView
from domain.wick_ember.options import Options


def deal_order(dealt: RoundDealt) -> list[int]:
    """A round's deck from the top, read back from its deal event."""
    count = len(dealt.hands)
    hands = [dealt.hands[(dealt.opener + step) % count] for step in range(count)]
    return [dealt.set_aside, *dealt.face_up, *[c for c in hands if c is not None], *dealt.draw_pile]


def test_w3_given_a_practice_deal_then_the_round_is_laid_out_from_the_top():
    """W3: set-aside face down, then one card to each seat from the opener clockwise, then the draws."""
    deal = stacked("gale", ("lensmaker", "veilkeeper", "sootsweep"), ("moth_duchess",))
    table = Table(3, rounds=(deal,), opener=1)
    dealt = table.events[1]
    assert isinstance(dealt, RoundDealt) and dealt.opener == 1 and dealt.face_up == ()
    assert [name_of(c) for c in dealt.hands] == ["sootsweep", "lensmaker", "veilkeeper"]
    assert name_of(dealt.set_aside) == "gale" and len(dealt.draw_pile) == 12
    assert table.hand(1) == ["lensmaker", "moth_duchess"] and table.view(None).deck_size == 11


def test_w3_given_two_seats_then_two_more_cards_are_set_aside_face_up_for_everyone_to_see():
    """W3, W16: at two seats the next two cards are set aside face up (public)."""
    table = Table(
        2, rounds=(stacked("gale", ("gale", "lensmaker"), face_up=("sootsweep", "ferrywoman")),)
    )
    for seat in (None, 0, 1):
        assert table.view(seat).face_up == ("sootsweep", "ferrywoman")
    assert table.view(None).deck_size == 16 - 1 - 2 - 2 - 1


def test_w3_given_no_practice_deal_then_the_round_deck_comes_from_the_seeded_round_stream():
    """W3: round r's deck is rng.stream('round', r, 'deck').shuffle of the deck's ids."""
    for seats, deck in ((2, "standard"), (4, "expanded"), (6, "expanded")):
        events = GAME.setup(Options(deck=deck if seats == 4 else None), PLAYERS[:seats], RNG)
        expected = RNG.stream("round", 1, "deck").shuffle(card_ids(deck))
        assert deal_order(events[1]) == expected


def test_w4_given_no_practice_opener_then_round_one_opens_with_the_seat_from_the_opener_stream():
    """W4: the first opener is rng.stream('opener').below(seats)."""
    for index in range(8):
        rng = Rng(f"seed {index}".encode())
        events = GAME.setup(Options(), PLAYERS[:5], rng)
        assert events[1].opener == rng.stream("opener").below(5) == events[2].seat


def test_w4_w13_given_a_last_lit_flame_then_it_wins_the_round_and_opens_the_next():
    """W13: one lit seat wins the round; W4: the winner opens the next round, dealt at once."""
    quiet = stacked(
        "gale", ("veilkeeper", "lensmaker"), ("moth_duchess", "lamp_warden"), TWO_WARDENS_UP
    )
    table = Table(2, rounds=(quiet,))
    table.play(0, "moth_duchess")
    table.play(1, "lamp_warden", target=0, guess="veilkeeper")
    assert table.last(RoundWon).winners == (1,) and table.view(None).seats[1].embers == 1
    assert table.last(SetAsideRevealed).card == 7  # the first Gale
    dealt = table.last(RoundDealt)
    assert (
        dealt.round == 2
        and dealt.opener == 1
        and table.events[-1] == TurnBegan(seat=1, drew=dealt.draw_pile[0])
    )
    assert deal_order(dealt) == RNG.stream("round", 2, "deck").shuffle(card_ids("standard"))
    lines = table.lines()
    won = lines.index("Bryn wins the round and banks an ember (1 of 6).")
    assert lines[won : won + 3] == [
        "Bryn wins the round and banks an ember (1 of 6).",
        "The face-down set-aside was the Gale.",
        "Round 2: Bryn opens; one card is set aside face down.",
    ]


def test_w13_given_the_deck_runs_out_then_dawn_shows_the_lit_cards_and_the_highest_wins():
    """W13: dawn; every lit seat shows its card, the highest wins; the set-aside log line follows."""
    table = sweep_takes_the_set_aside(ember_target=1)
    shown = table.last(DawnBroke).revealed
    assert [name_of(c) for c in shown] == ["hearthflame", "gale"]
    assert table.last(RoundWon).winners == (0,)
    assert (
        "Dawn: the deck is empty. Ash shows the Hearthflame and Bryn shows the Gale."
        in table.lines()
    )
    result = table.view(None).result
    assert result is not None and result.dawn == (
        DawnView(seat=0, card="hearthflame"),
        DawnView(seat=1, card="gale"),
    )


def test_w10_given_an_empty_deck_when_a_sootsweep_sweeps_then_the_target_takes_the_face_down_set_aside():
    """W10, W13: the replacement is the face-down set-aside; the round's end says a Sootsweep dealt it."""
    table = sweep_takes_the_set_aside(ember_target=1)
    assert table.last(ReplacementDrawn).from_set_aside
    assert table.last(SetAsideRevealed).card is None
    lines = table.lines()
    assert "The deck is empty, so Bryn takes the face-down set-aside." in lines
    assert "A Sootsweep dealt the face-down set-aside." in lines
    view = table.view(None)
    assert view.set_aside is None and view.set_aside_dealt


def test_w13_given_the_deck_is_empty_and_one_flame_is_lit_then_the_last_flame_wins_without_a_dawn():
    """W13: a last lit flame is decided first, before the empty deck's dawn."""
    table = last_flame_on_the_last_card(ember_target=1)
    assert table.count(DawnBroke) == 0 and table.view(None).deck_size == 0
    assert table.last(RoundWon).winners == (0,)
    assert (
        table.view(None).set_aside == "gale"
        and "The face-down set-aside was the Gale." in table.lines()
    )


def test_w13_w4_given_a_tie_at_dawn_then_both_win_and_the_first_winner_clockwise_from_the_opener_opens():
    """W13: a tie at dawn is a shared win; W4: Bryn opened, so Cato (next clockwise) opens, not Ash."""
    table = tied_dawn()
    assert table.last(RoundWon).winners == (0, 2)
    assert [s.embers for s in table.view(None).seats] == [1, 0, 1]
    assert table.last(RoundDealt).opener == 2
    assert "Ash and Cato share the round; each banks an ember." in table.lines()


def test_w9_given_a_veiled_seat_at_dawn_then_it_shows_its_card_like_any_lit_seat():
    """W9, W13: a veil does not hide a card at dawn; the veil ends with the round."""
    table = tied_dawn()
    assert name_of(table.last(DawnBroke).revealed[1]) == "lamp_warden"
    assert not any(lamp.veiled for lamp in table.after(RoundWon).seats)


def test_w14_given_a_tie_at_dawn_that_reaches_the_target_then_the_winners_share_the_match():
    """W14: every seat reaching the target on that round shares the win; no further card is drawn."""
    table = tied_dawn(ember_target=1)
    assert table.last(NightEnded).winners == (0, 2) and isinstance(table.events[-1], NightEnded)
    outcome = GAME.outcome(table.state)
    assert outcome is not None and outcome.scores == (1, 0, 1) and outcome.placements == (1, 3, 1)
    assert GAME.to_act(table.state) == () and table.legal(0) == []
    assert "Ash and Cato share the win." in table.lines()
    assert table.refuses(0, PlayCard(card="gale"), WrongPhase) == "the match is over"


def test_w14_given_embers_over_several_rounds_then_the_match_ends_the_moment_one_seat_reaches_the_target():
    """W14: embers add up round by round; the match ends at the target, with no new deal."""
    quick = stacked("gale", ("lamp_warden", "lensmaker"), ("veilkeeper",), TWO_WARDENS_UP)
    table = Table(2, rounds=(quick, quick), ember_target=2)
    table.play(0, "lamp_warden", target=1, guess="lensmaker")
    assert table.state.round.number == 2 and GAME.outcome(table.state) is None
    table.play(0, "lamp_warden", target=1, guess="lensmaker")
    assert table.count(RoundWon) == 2 and table.count(RoundDealt) == 2
    assert GAME.outcome(table.state).winners == (0,) and table.lines()[-1] == "Ash wins the night."


def test_given_the_same_events_then_evolve_folds_to_the_same_state_without_a_generator():
    """Evolve is a plain fold: replaying the recorded events gives the very same state."""
    table = tied_dawn()
    assert fold(table.events) == table.state
