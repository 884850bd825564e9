"""One seeded random Deathwick match, checked after every command (test_deathwick_random.py).

A support module: tests/conftest.py has pytest rewrite its asserts, so a failure is reported in
full.
"""

from __future__ import annotations

import random

import msgspec

from domain.core.decider import Concede
from domain.core.rng import Rng
from domain.deathwick import GAME
from domain.deathwick.audit import card_places, secrets
from domain.deathwick.options import Options
from tests.domain.random_play import random_play
from tests.games.conformance import shows, strings

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
