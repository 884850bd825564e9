"""Random legal matches for the property and leak tests: a seeded random.Random picks the moves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from whiteout_road_support import PLAYERS

from domain.core.decider import Concede, Rulebook
from domain.core.rng import Rng
from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road.options import BURIAL_MARKS, Options
from tests.domain.random_play import Batch, random_play

MAX_COMMANDS = 2000
CONCEDE_CHANCE = 0.003


def random_options(chooser: random.Random, seats: int) -> Options:
    """Mostly the default burial mark; now and then one a few spaces lower or higher."""
    if chooser.random() < 0.7:
        return Options()
    return Options(burial_mark=BURIAL_MARKS[seats] + chooser.randint(-6, 6))


def match_setup(index: int, game: Rulebook = GAME) -> tuple[random.Random, Rng, list[Any]]:
    """Match number ``index``: its move chooser, its generator and its opening events."""
    chooser = random.Random(index)
    seats = 2 + index % 5
    rng = Rng(f"whiteout road random match {index}".encode())
    return chooser, rng, game.setup(random_options(chooser, seats), PLAYERS[:seats], rng)


def next_command(chooser: random.Random, state: Any) -> tuple[int, Any]:
    """Now and then a seat still in concedes; otherwise a seat that owes a card commits one."""
    if chooser.random() < CONCEDE_CHANCE:
        still_in = [seat for seat, t in enumerate(state.seats) if not t.conceded]
        return chooser.choice(still_in), Concede()
    seat = chooser.choice(GAME.to_act(state))
    legal = GAME.legal_actions(state, seat)
    assert legal, f"seat {seat} owes a card but has no legal action"
    return seat, chooser.choice(legal)


def random_match(index: int, game: Rulebook = GAME) -> Iterator[Batch]:
    """Each batch of random match ``index`` (rules version 1 unless told), its opening first."""
    chooser, rng, opening = match_setup(index, game)
    return random_play(game, opening, rng, lambda state: next_command(chooser, state), MAX_COMMANDS)
