"""Labels of Wick & Ember's legal actions: the card, the seat named, the guess; nothing hidden."""

from __future__ import annotations

import msgspec
from wick_ember_random import random_match

from domain.core.decider import Concede
from domain.wick_ember import GAME
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.labels import play_label
from domain.wick_ember.state import Playing

NAMES = ("Ash", "Bryn", "Cato")


def test_a_play_on_another_seat_names_the_card_and_that_seats_name():
    """Given a Gale aimed at seat 1, then its label is 'Play Gale on Bryn'."""
    assert play_label(NAMES, 0, PlayCard(card="gale", target=1)) == "Play Gale on Bryn"


def test_a_lamp_warden_names_its_guess_and_a_play_on_yourself_says_so():
    """Given a Lamp Warden with a guess, and a Sootsweep aimed at the player itself, then the
    labels say the guess and 'on yourself'; a card with no target names only the card."""
    warden = PlayCard(card="lamp_warden", target=2, guess="lensmaker")
    assert play_label(NAMES, 0, warden) == "Play Lamp Warden on Cato, guessing Lensmaker"
    assert play_label(NAMES, 1, PlayCard(card="sootsweep", target=1)) == "Play Sootsweep on yourself"
    assert play_label(NAMES, 1, PlayCard(card="hearthflame")) == "Play Hearthflame"
    assert GAME.label(None, 0, Concede()) == "Concede the match"


def test_labels_tell_the_actions_apart_and_do_not_change_with_what_the_seat_cannot_see():
    """Given random matches, when every other seat's hand and the draw pile are emptied, then
    each seat's labels are the same, one per legal action, each naming a card in its hand."""
    checked = 0
    for index in range(6):
        for batch in random_match(index):
            state = batch.states[-1]
            if not isinstance(state, Playing) or state.turn is None:
                continue
            seat = state.turn
            actions = GAME.legal_actions(state, seat)
            labels = [GAME.label(state, seat, action) for action in actions]
            assert len(set(labels)) == len(labels)
            blind = hidden_emptied(state, seat)
            assert [GAME.label(blind, seat, action) for action in actions] == labels
            checked += len(labels)
    assert checked > 100


def hidden_emptied(state: Playing, seat: int) -> Playing:
    """The state with what ``seat`` cannot see taken away: other hands, the draw pile."""
    seats = tuple(
        lamp if index == seat else msgspec.structs.replace(lamp, hand=())
        for index, lamp in enumerate(state.seats)
    )
    round_ = msgspec.structs.replace(state.round, draw_pile=(), set_aside=None)
    return msgspec.structs.replace(state, seats=seats, round=round_)
