"""D1 to D3: the supplies, the deal, values and the class draft."""

from __future__ import annotations

from collections import Counter

import pytest
from deathwick_support import PLAYERS, RNG, Table, card

from domain.core.errors import RuleViolation
from domain.deathwick import GAME, cards
from domain.deathwick.audit import card_places
from domain.deathwick.commands import ChooseClass, PassRitual
from domain.deathwick.events import ClassesOffered, RoundBegan
from domain.deathwick.options import Options, check_options
from domain.deathwick.state import Drafting, Playing


def fold(events):
    state = None
    for event in events:
        state = GAME.evolve(state, event)
    return state


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 2), (4, 2), (8, 4), (9, 5), (20, 10)])
def test_d1_one_deck_of_54_per_two_players_each_candle_27_and_the_rest_in_the_dark(players, decks):
    """D1: given a table of N players, when the circle forms, then every card of the decks lies
    in exactly one place: 27 in each Candle (3 of them drawn), the rest face up in The Dark."""
    events = GAME.setup(Options(classes="on"), PLAYERS[:players], RNG)
    state = fold(events)
    assert state.decks == decks
    assert all(len(candle) == 27 for candle in events[0].candles)
    assert all(len(p.candle) == 24 and len(p.hand) == 3 for p in state.players)
    assert len(state.dark) == decks * 54 - 27 * players
    assert all(len(places) == 1 for places in card_places(state).values())
    jokers = Counter(cards.rank(c) for c in cards.pool(decks))[0]
    assert jokers == 2 * decks


def test_d1_the_first_player_and_the_shuffle_come_from_the_seeded_generator():
    """D1, D7: given the same seed, when two circles form, then the deal and the first player
    are the same; another seed deals otherwise."""
    from domain.core.rng import Rng

    one = GAME.setup(Options(), PLAYERS[:5], Rng(b"a"))
    assert one == GAME.setup(Options(), PLAYERS[:5], Rng(b"a"))
    assert one != GAME.setup(Options(), PLAYERS[:5], Rng(b"b"))


def test_d2_values_and_suit_tier_decide_whether_a_card_meets_a_ghost():
    """D2: faces are worth 10, a tie goes by spades > hearts > clubs > diamonds, equal meets."""
    assert cards.meets(card("7H"), card("7C")) and cards.meets(card("7H"), card("7H"))
    assert not cards.meets(card("7C"), card("7H"))
    assert cards.meets(card("10S"), card("JH")) and not cards.meets(card("10D"), card("KC"))
    assert not cards.meets(card("JOKER"), card("AD"))
    assert cards.value(card("AS")) == 1 and cards.value(card("QD")) == 10


def test_d3_each_player_is_offered_three_different_classes_and_play_waits_for_every_choice():
    """D3: given classes on, when the circle forms, then each seat is offered three different
    classes and all choose at once; play begins once the last has chosen."""
    t = Table(3, classes="on")
    offers = t.last(ClassesOffered).offers
    assert all(len(set(offer)) == 3 for offer in offers)
    assert isinstance(t.state, Drafting) and t.to_act() == (0, 1, 2)
    t.send(1, ChooseClass(name=offers[1][0]))
    assert t.to_act() == (0, 2)
    t.send(0, ChooseClass(name=offers[0][2]))
    t.send(2, ChooseClass(name=offers[2][1]))
    assert isinstance(t.state, Playing) and t.count(RoundBegan) == 1
    assert [p.curse for p in t.state.players] == [offers[0][2], offers[1][0], offers[2][1]]


def test_d3_a_class_not_offered_or_a_second_choice_is_refused():
    """D3: given an offer, when a seat names another class or chooses twice, then it is refused."""
    t = Table(2, offers=[["watcher", "hex", "clown"], ["hoarder", "unseen", "warlock"]])
    assert "offered to you" in t.refuses(0, ChooseClass(name="hoarder"))
    t.send(0, ChooseClass(name="hex"))
    assert "already" in t.refuses(0, ChooseClass(name="watcher"))
    assert "choose yours first" in t.refuses(1, PassRitual())


def test_d3_a_class_chosen_after_the_draft_is_refused_as_too_late():
    """D3: given play has begun, when a stale class choice arrives, then it is a 409, not a
    Ritual action."""
    from domain.core.errors import WrongPhase

    t = Table(2, offers=[["watcher", "hex", "clown"], ["hoarder", "unseen", "warlock"]])
    t.send(0, ChooseClass(name="hex"))
    t.send(1, ChooseClass(name="unseen"))
    assert "play has begun" in t.refuses(0, ChooseClass(name="watcher"), WrongPhase)


def test_d3_classes_off_skips_the_draft():
    """D3: given classes off, when the circle forms, then the first round begins at once."""
    t = Table(3)
    assert isinstance(t.state, Playing) and t.count(ClassesOffered) == 0
    assert all(p.curse is None for p in t.state.players)


def test_options_a_script_is_for_practice_tables_and_must_fit_the_decks():
    """Practice deals: scripted Candles only at a practice table, real codes, copies available."""
    with pytest.raises(RuleViolation, match="practice"):
        check_options(Options(candles=[["7H"]]), 2, False)
    with pytest.raises(RuleViolation, match="not a card"):
        check_options(Options(candles=[["7X"]]), 2, True)
    with pytest.raises(RuleViolation, match="hold 1"):
        check_options(Options(candles=[["7H", "7H"]]), 2, True)
    with pytest.raises(RuleViolation, match="classes on"):
        check_options(Options(classes="off", offers=[["hex", "clown", "watcher"]] * 2), 2, True)
    check_options(Options(candles=[["7H", "7H"]]), 3, True)
