"""The observer builds the public part of a state's views once and shares it among its viewers:
every view so shaped is exactly the one built afresh, in whatever order the viewers ask.

Seeded random matches at 3 and 20 seats; at each state the spectator and every seat are
observed in a shuffled order (all but the first reuse the public part), then each view's JSON is
compared with the one observed from a copy of the state (a new object: nothing reused).
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
            viewers: list[int | None] = [None, *range(seats), None]
            chooser.shuffle(viewers)
            shared = [msgspec.json.encode(GAME.observe(state, viewer)) for viewer in viewers]
            for viewer, view in zip(viewers, shared, strict=True):
                fresh = msgspec.json.encode(GAME.observe(copy.copy(state), viewer))
                assert view == fresh, (viewer, batch.command)
                compared += 1
    assert compared > 100 * seats
