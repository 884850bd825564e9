"""Property test: seeded random legal matches at every player count from 2 to 20.

Each ends; after every event all 54 cards of each deck lie in exactly one place; decide takes
every command the seat is offered (a sample) and nobody outside ``to_act`` is offered any; no
view shows a card its reader may not know (hands, Candles, others' Sight snapshots). 200
matches per count in the slow suite, 3 per count in the quick one.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.core.decider import Concede
from domain.core.rng import Rng
from domain.deathwick import GAME
from domain.deathwick.audit import card_places, secrets
from domain.deathwick.options import Options
from tests.domain.random_play import random_play
from tests.games.conformance import shows, strings

COUNTS = range(2, 21)
QUICK, SLOW = 3, 200
CONCEDE_CHANCE = 0.003


def play_one(index: int, seats: int, views: bool) -> None:
    """One random match, checked after every command."""
    chooser = random.Random(index * 100 + seats)
    rng = Rng(f"deathwick random {seats} {index}".encode())
    options = Options(classes=chooser.choice(["on", "off"]), ritual=chooser.choice(
        ["standard", "dark"]), reaction_prompts=chooser.choice(["always", "only_when_able"]))
    names = tuple(f"P{n}" for n in range(seats))
    state = None
    for batch in random_play(GAME, GAME.setup(options, names, rng), rng,
                             lambda s: next_command(chooser, s), 20000):
        for state in batch.states:
            assert all(len(places) == 1 for places in card_places(state).values())
        if views and chooser.random() < 0.2:
            no_leak(state)
        check_offers(state, chooser, rng)
    assert GAME.outcome(state) is not None and GAME.to_act(state) == ()


def next_command(chooser: random.Random, state) -> tuple[int, object]:
    """Now and then a living seat concedes; else a seat owing plays at random."""
    if chooser.random() < CONCEDE_CHANCE:
        alive = [s for s, p in enumerate(state.players) if p.alive]
        return chooser.choice(alive), Concede()
    seat = chooser.choice(GAME.to_act(state))
    return seat, chooser.choice(GAME.legal_actions(state, seat))


def check_offers(state, chooser: random.Random, rng: Rng) -> None:
    """The seats owing have actions decide accepts; the others have none."""
    if GAME.outcome(state) is not None:
        return
    waiting = GAME.to_act(state)
    for seat in range(len(state.players)):
        actions = GAME.legal_actions(state, seat)
        assert bool(actions) == (seat in waiting)
        if actions:
            GAME.decide(state, seat, chooser.choice(actions), rng)


def no_leak(state) -> None:
    """No reader's view shows one of its secrets."""
    for reader in [None, *range(len(state.players))]:
        text = "\n".join(strings(msgspec.to_builtins(GAME.observe(state, reader))))
        assert shows(secrets(state, reader), text) == []


@pytest.mark.parametrize("seats", COUNTS)
def test_random_matches_end_and_keep_every_card_in_one_place(seats):
    for index in range(QUICK):
        play_one(index, seats, views=True)


@pytest.mark.slow
@pytest.mark.parametrize("seats", COUNTS)
def test_two_hundred_random_matches_at_every_count_end_and_keep_every_card(seats):
    for index in range(QUICK, QUICK + SLOW):
        play_one(index, seats, views=index % 10 == 0)
