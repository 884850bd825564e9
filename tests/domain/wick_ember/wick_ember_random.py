"""Random legal matches for the property and leak tests: a seeded random.Random picks the moves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from wick_ember_support import PLAYERS

from domain.core.decider import Concede
from domain.core.rng import Rng
from domain.wick_ember import GAME
from domain.wick_ember.options import Options
from tests.domain.random_play import Batch, random_play

MAX_COMMANDS = 5000
CONCEDE_CHANCE = 0.004


def random_options(chooser: random.Random, seats: int) -> Options:
    """Short matches over both decks: an ember target of 1 to 3, or the short match length."""
    deck = chooser.choice(["standard", "expanded"]) if seats in (3, 4) else None
    if chooser.random() < 0.5:
        return Options(deck=deck, ember_target=chooser.randint(1, 3))
    return Options(deck=deck, match_length="short")


def match_setup(index: int) -> tuple[random.Random, Rng, int, list[Any]]:
    """Match number ``index``: its move chooser, its generator, its seat count, its opening events."""
    chooser = random.Random(index)
    seats = 2 + index % 5
    rng = Rng(f"random match {index}".encode())
    return chooser, rng, seats, GAME.setup(random_options(chooser, seats), PLAYERS[:seats], rng)


def next_command(chooser: random.Random, state: Any) -> tuple[int, Any]:
    """Now and then a random seat still in concedes; otherwise the seat to act plays at random."""
    still_in = [seat for seat, lamp in enumerate(state.seats) if not lamp.conceded]
    if chooser.random() < CONCEDE_CHANCE:
        return chooser.choice(still_in), Concede()
    seat = GAME.to_act(state)[0]
    return seat, chooser.choice(GAME.legal_actions(state, seat))


def random_match(index: int) -> Iterator[Batch]:
    """Each batch of random match ``index``, its opening first."""
    chooser, rng, _, opening = match_setup(index)
    return random_play(GAME, opening, rng, lambda state: next_command(chooser, state), MAX_COMMANDS)
