"""Random legal matches for the property and leak tests: a seeded random.Random picks the moves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from whiteout_road_support import PLAYERS

from domain.core.decider import Concede
from domain.core.rng import Rng
from domain.whiteout_road import GAME
from domain.whiteout_road.options import BURIAL_MARKS, Options

MAX_COMMANDS = 2000
CONCEDE_CHANCE = 0.003


def random_options(chooser: random.Random, seats: int) -> Options:
    """Mostly the default burial mark; now and then one a few spaces lower or higher."""
    if chooser.random() < 0.7:
        return Options()
    return Options(burial_mark=BURIAL_MARKS[seats] + chooser.randint(-6, 6))


def match_setup(index: int) -> tuple[random.Random, Rng, list[Any]]:
    """Match number ``index``: its move chooser, its generator and its opening events."""
    chooser = random.Random(index)
    seats = 2 + index % 5
    rng = Rng(f"whiteout road random match {index}".encode())
    return chooser, rng, GAME.setup(random_options(chooser, seats), PLAYERS[:seats], rng)


def next_command(chooser: random.Random, state: Any) -> tuple[int, Any]:
    """Now and then a seat still in concedes; otherwise a seat that owes a card commits one."""
    if chooser.random() < CONCEDE_CHANCE:
        still_in = [seat for seat, t in enumerate(state.seats) if not t.conceded]
        return chooser.choice(still_in), Concede()
    seat = chooser.choice(GAME.to_act(state))
    legal = GAME.legal_actions(state, seat)
    assert legal, f"seat {seat} owes a card but has no legal action"
    return seat, chooser.choice(legal)


def random_match(index: int) -> Iterator[tuple[Any, int, Any, list[tuple[Any, Any]]]]:
    """Yield (state before, seat, command, [(event, state after it), ...]) for each command.

    The opening events come first, with no state, seat or command.
    """
    chooser, rng, opening = match_setup(index)
    state, seat, command, events = None, -1, None, opening
    for _ in range(MAX_COMMANDS):
        before, steps = state, []
        for event in events:
            state = GAME.evolve(state, event)
            steps.append((event, state))
        yield before, seat, command, steps
        if GAME.outcome(state) is not None:
            return
        seat, command = next_command(chooser, state)
        events = GAME.decide(state, seat, command, rng)
    raise AssertionError(f"match {index} did not end within {MAX_COMMANDS} commands")
