"""The burial mark's defaults (R3): pinned to the documented ones, checked by a small simulation."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from whiteout_road_support import PLAYERS

from domain.core.rng import Rng
from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road.events import NightEnded
from domain.whiteout_road.options import BURIAL_MARKS, Options
from tests.domain.random_play import any_legal, random_play

DOC = Path(__file__).parents[3] / "docs" / "rules" / "whiteout-road.md"
GAMES_PER_COUNT = 150
MAX_COMMANDS = 10_000


def test_r3_the_default_burial_marks_are_the_documented_ones():
    """R3: the defaults chosen with bench/burial_mark.py, as the rules doc lists them."""
    assert BURIAL_MARKS == {2: 17, 3: 19, 4: 21, 5: 21, 6: 22}
    table = DOC.read_text().split("<!-- burial marks -->")[1]
    documented = re.findall(r"^\| (\d) \| \*\*(\d+)\*\* \|", table, re.MULTILINE)
    assert {int(players): int(mark) for players, mark in documented} == BURIAL_MARKS


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_r3_with_random_legal_play_15_to_35_percent_of_nights_end_buried(players):
    """R3: a smaller simulation (150 games, 450 nights, other seeds) lands within the band."""
    endings: Counter[str] = Counter()
    for index in range(GAMES_PER_COUNT):
        endings.update(night.ending for night in random_game(players, index))
    share = endings["buried"] / sum(endings.values())
    assert 0.15 <= share <= 0.35, f"{share:.0%} of nights ended buried: {dict(endings)}"


def random_game(players: int, index: int) -> list[NightEnded]:
    """One game at the default mark; every seat picks a legal commitment at random."""
    chooser, rng = random.Random(f"r3/{players}/{index}"), Rng(f"r3/{players}/{index}".encode())
    opening = GAME.setup(Options(), PLAYERS[:players], rng)
    batches = random_play(GAME, opening, rng, any_legal(GAME, chooser), MAX_COMMANDS)
    return [event for batch in batches for event in batch.events if isinstance(event, NightEnded)]
