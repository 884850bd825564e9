"""Property test: seeded random legal matches at every player count from 2 to 20.

Each ends; after every event all 54 cards of each deck lie in exactly one place; decide takes
every command the seat is offered (a sample) and nobody outside ``to_act`` is offered any; no
view shows a card its reader may not know (hands, Candles, others' Sight snapshots).

A sampling test (tests/sampling.py): each run plays BUDGET matches per count from the run's start
seed, one test each; `make sample-all` plays FULL per count.
"""

from __future__ import annotations

import pytest

from tests import sampling
from tests.domain.deathwick.random_matches import play_one

COUNTS = range(2, 21)
BUDGET, FULL = 3, 200


@sampling.MARK
@pytest.mark.parametrize("sample", sampling.samples(BUDGET, FULL))
@pytest.mark.parametrize("seats", COUNTS)
def test_random_matches_end_and_keep_every_card_in_one_place(seats, sample):
    play_one(sampling.index(sample), seats, views=True)
