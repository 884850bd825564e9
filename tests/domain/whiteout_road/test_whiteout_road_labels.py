"""Labels of Whiteout Road's legal actions: the play, the seat's own card, its wagon."""

from __future__ import annotations

import msgspec
from whiteout_road_random import random_match

from domain.core.decider import Concede
from domain.whiteout_road import GAME
from domain.whiteout_road.commands import Commit
from domain.whiteout_road.labels import commit_label
from domain.whiteout_road.state import Beat, Gambit


def test_each_play_is_labelled_with_the_card_and_the_wagon_it_goes_to():
    """Given one commit of each kind, then each label names the card as a player says it and,
    where there is one, the wagon (the card's suit's, or the one named for breaking trail)."""
    assert commit_label(Commit(card="7C", play="feed")) == "Feed the fire with the 7 of clubs"
    assert commit_label(Commit(card="9H", play="load")) == "Load the 9 of hearts onto the food wagon"
    assert commit_label(Commit(card="QD", play="push")) == (
        "Push the medicine wagon with the Queen of diamonds"
    )
    assert commit_label(Commit(card="3S", play="break_trail", wagon="firewood")) == (
        "Break trail for the firewood wagon with the 3 of spades"
    )
    assert commit_label(Commit(card="8H", play="fling")) == "Fling the 8 of hearts onto the food wagon"
    assert commit_label(Commit(card="KS", play="watch")) == "Keep watch with the King of spades"
    assert GAME.label(None, 0, Concede()) == "Concede the match"


def test_labels_tell_the_actions_apart_and_do_not_change_with_what_the_seat_cannot_see():
    """Given random matches, when every other seat's hand is emptied, then each owing seat's
    labels are the same, one per legal action."""
    checked = 0
    for index in range(4):
        for batch in random_match(index):
            state = batch.states[-1]
            if not isinstance(state, Beat | Gambit):
                continue
            for seat in state.owing:
                actions = GAME.legal_actions(state, seat)
                labels = [GAME.label(state, seat, action) for action in actions]
                assert len(set(labels)) == len(labels)
                blind = msgspec.structs.replace(state, seats=tuple(
                    t if i == seat else msgspec.structs.replace(t, hand=())
                    for i, t in enumerate(state.seats)))
                assert [GAME.label(blind, seat, action) for action in actions] == labels
                checked += len(labels)
    assert checked > 100
