"""Property test: seeded random legal matches over 2 to 6 seats and both decks (a sampling test,
tests/sampling.py: 2,000 a run, 20,000 under `make sample-all`)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from wick_ember_random import random_match

from domain.core.errors import NotYourTurn, RuleViolation
from domain.core.rng import Rng
from domain.wick_ember import GAME
from domain.wick_ember.audit import card_locations
from domain.wick_ember.cards import NAMES, RANKS
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.events import RoundWon
from tests import sampling

PER_CHUNK = 200
BUDGET, FULL = 10, 100  # chunks
ALL_LEGAL_CHANCE = 0.05


@sampling.MARK
@pytest.mark.parametrize("chunk", sampling.samples(BUDGET, FULL))
def test_random_legal_matches_end_and_keep_every_card_in_one_place(chunk):
    """Each match ends; cards, embers, turns and decide agree with the rules after every event."""
    for index in sampling.chunk(chunk, PER_CHUNK):
        check_match(index)


def check_match(index: int) -> None:
    """Play one random match and check it throughout."""
    probe, rng = random.Random(-1 - index), Rng(f"random match {index}".encode())
    state: Any = None
    won: Counter[int] = Counter()
    for batch in random_match(index):
        if batch.before is not None:
            check_turn(batch.before, probe, rng)
        for event, state in zip(batch.events, batch.states, strict=True):
            won.update(event.winners if isinstance(event, RoundWon) else ())
            check_table(state, won)
    check_result(state, won)


def check_table(state: Any, won: Counter[int]) -> None:
    """Every card in exactly one place; embers equal the rounds each seat won."""
    for card, places in card_locations(state).items():
        assert state.round is None or len(places) == 1, f"card {card} is in {places}"
    assert [lamp.embers for lamp in state.seats] == [won[s] for s in range(len(state.seats))]


def check_turn(state: Any, probe: random.Random, rng: Rng) -> None:
    """The seat to act has legal plays, sorted; decide takes them and refuses everything else."""
    (seat,) = GAME.to_act(state)
    legal = GAME.legal_actions(state, seat)
    assert legal and legal == sorted(legal, key=play_order)
    allowed = set(legal)
    for command in random_plays(probe, len(state.seats)):
        if command in allowed:
            assert GAME.decide(state, seat, command, rng)
        else:
            with pytest.raises(RuleViolation):
                GAME.decide(state, seat, command, rng)
    if probe.random() < ALL_LEGAL_CHANCE:
        assert all(GAME.decide(state, seat, command, rng) for command in legal)
    check_others_wait(state, seat, legal[0], rng)


def check_others_wait(state: Any, seat: int, command: PlayCard, rng: Rng) -> None:
    """Every other seat is refused as not its turn, and has nothing to do."""
    for other in range(len(state.seats)):
        if other != seat:
            assert GAME.legal_actions(state, other) == []
            with pytest.raises(NotYourTurn):
                GAME.decide(state, other, command, rng)


def random_plays(probe: random.Random, seats: int) -> list[PlayCard]:
    """A few random, mostly malformed plays."""
    cards, guesses = [*NAMES, "dragon"], [None, *NAMES, "dragon"]
    targets = [None, -1, *range(seats + 1)]
    return [
        PlayCard(
            card=probe.choice(cards), target=probe.choice(targets), guess=probe.choice(guesses)
        )
        for _ in range(3)
    ]


def play_order(play: PlayCard) -> tuple[int, int, int]:
    """The documented order of legal actions: card rank, then target, then guess rank."""
    return (
        RANKS[play.card],
        -1 if play.target is None else play.target,
        RANKS.get(play.guess or "", 0),
    )


def check_result(state: Any, won: Counter[int]) -> None:
    """The match is over: scores are rounds won; winners reached the target or are the last seat in."""
    outcome = GAME.outcome(state)
    assert outcome is not None and GAME.to_act(state) == ()
    assert outcome.scores == tuple(won[s] for s in range(len(state.seats)))
    still_in = [s for s, lamp in enumerate(state.seats) if not lamp.conceded]
    reached = tuple(s for s in still_in if won[s] >= state.night.ember_target)
    assert outcome.winners == (reached or tuple(still_in))
    assert all(outcome.placements[s] == 1 for s in outcome.winners)
