"""What the server plays for a seat out of time: each game's declared default (on_time_out)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain.core import match
from domain.core.seats import clockwise_from
from domain.games import GAMES
from domain.whiteout_road.cards import height, sort_key
from domain.whiteout_road.state import Gambit
from domain.wick_ember.cards import RANKS
from domain.wick_ember.legal import playable
from tests import sampling

WICK, ROAD = GAMES["wick-and-ember"], GAMES["whiteout-road"]


def states(game: Any, seats: int, index: int) -> Iterator[match.Table]:
    """Every table state of one random legal match (random seats, random legal actions)."""
    seed, rng = hashlib.sha256(f"time-out-{index}".encode()).digest(), random.Random(index)
    state = match.evolve(game, None, match.open_match(
        game, seats=seats, options={}, practice=False, tournament=None, label=None,
        seed_commitment="c0ffee"))
    for n in range(seats):
        state = match.fold(game, match.decide(game, state, None, match.JoinSeat(name=f"S{n}"),
                                              seed), state)
    state = match.fold(game, match.decide(game, state, None, match.StartMatch(), seed), state)
    while match.outcome(game, state) is None:
        yield state
        seat = rng.choice(game.to_act(state.game))
        command = rng.choice(game.legal_actions(state.game, seat))
        _, state = match.decide_and_evolve(game, state, seat, command, seed)


@sampling.MARK
@pytest.mark.parametrize("game", [WICK, ROAD], ids=lambda game: game.id)
def test_a_time_out_always_plays_a_legal_action_of_the_seat_out_of_time(game):
    """Given random matches, then for every seat owing a move the declared default is one of its
    legal actions, and deciding the time-out gives SeatTimedOut then that action's events."""
    seed = hashlib.sha256(b"time-out").digest()
    for index in map(sampling.index, sampling.samples(6, 200)):
        for state in states(game, 2 + index % 3, index):
            for seat in game.to_act(state.game):
                action = game.time_out_action(state.game, seat)
                assert action in game.legal_actions(state.game, seat)
                events = match.decide(game, state, None, match.time_out(game, state, seat), seed)
                assert events[0] == match.SeatTimedOut(seat=seat)


def test_h11_a_seat_out_of_time_plays_its_lowest_card_on_the_first_seat_clockwise():
    """H11: given random Wick & Ember matches, then a time-out plays the lowest-ranked card the
    seat may play, choosing the first seat clockwise that may be chosen, a Lamp Warden naming the
    lowest rank (Lensmaker)."""
    for index in range(6):
        for state in states(WICK, 2 + index % 4, index):
            seat = WICK.to_act(state.game)[0]
            played = WICK.time_out_action(state.game, seat)
            assert played.card == min(playable(state.game.seats[seat].hand), key=RANKS.get)
            plays = [p for p in WICK.legal_actions(state.game, seat) if p.card == played.card]
            order = clockwise_from(seat, len(state.names))
            targets = [p.target for p in plays if p.target is not None]
            assert played.target == (min(targets, key=order.index) if targets else None)
            assert played.guess in (None, "lensmaker")


def test_h13_a_seat_out_of_time_feeds_its_lowest_card_or_plays_it_in_the_gambit():
    """H13: given random Whiteout Road matches, then a time-out commits the seat's lowest card
    (by rank, then hearts, diamonds, clubs, spades): fed in a beat, and in the Gambit flung (or
    kept as a watch, for a spade)."""
    gambits = 0
    for index in range(8):
        for state in states(ROAD, 2 + index % 5, index):
            for seat in ROAD.to_act(state.game):
                played = ROAD.time_out_action(state.game, seat)
                hand = state.game.seats[seat].hand
                assert played.card == min(hand, key=lambda c: (height(c), sort_key(c)))
                if isinstance(state.game, Gambit):
                    gambits += 1
                    assert played.play == ("watch" if played.card.endswith("S") else "fling")
                else:
                    assert played.play == "feed"
    assert gambits > 0
