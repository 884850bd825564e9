"""A seat's view made from the spectator's (``observe_over``: a feed builds the public part of a
change once and every seat's view from it) is exactly the one observed afresh.

Seeded random matches at 3 and 20 seats; at each state the spectator is observed once and every
seat's view made from it, then each view's JSON is compared with the one observed from a copy of
the state (a new object: nothing shared).
"""

from __future__ import annotations

import copy
import random

import msgspec
import pytest

from domain.core.rng import Rng
from domain.deathwick import GAME
from domain.deathwick.options import Options
from domain.deathwick.state import Unformed
from tests.domain.random_play import random_play


@pytest.mark.parametrize("seats", [3, 20])
def test_a_shared_public_part_gives_every_view_byte_for_byte(seats: int):
    chooser = random.Random(seats)
    rng = Rng(f"deathwick shared views {seats}".encode())
    options = Options(classes="on", ritual="standard", reaction_prompts="always")
    names = tuple(f"P{n}" for n in range(seats))

    def next_command(state):
        seat = chooser.choice(GAME.to_act(state))
        return seat, chooser.choice(GAME.legal_actions(state, seat))

    compared = 0
    for batch in random_play(GAME, GAME.setup(options, names, rng), rng, next_command, 400):
        for state in batch.states[-1:]:
            if isinstance(state, Unformed):
                continue
            public = GAME.observe(state, None)
            for seat in range(seats):
                shared = msgspec.json.encode(GAME.observed(state, seat, public))
                fresh = msgspec.json.encode(GAME.observe(copy.copy(state), seat))
                assert shared == fresh, (seat, batch.command)
                compared += 1
    assert compared > 50 * seats
