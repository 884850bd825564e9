"""R3: choose Whiteout Road's default burial mark per player count by simulating random play.

For each player count (2 to 6) and each candidate mark, play GAMES random legal games (three
nights each; every seat picks uniformly among its legal actions, seats commit in random order)
and count how each night ended: through (a laden wagon reached Town during the beats), buried
(the snow reached the mark during the beats), whiteout (the whiteout sent a wagon through),
gambit, last_watch.  The chosen default is the mark whose buried share is nearest 25%, among
the marks with 15% to 35%.  Run by hand, never in the test suite:

    PYTHONPATH=. python bench/burial_mark.py --games 2000 --seed 4
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from multiprocessing import Pool

from domain.core.rng import Rng
from domain.whiteout_road import GAME
from domain.whiteout_road.events import NightEnded
from domain.whiteout_road.options import BURIAL_MARKS, MAX_SEATS, MIN_SEATS, Options
from tests.domain.random_play import any_legal, random_play

ENDINGS = ("through", "buried", "whiteout", "gambit", "last_watch")
TARGET, LOW, HIGH = 0.25, 0.15, 0.35
NAMES = ("Ash", "Bryn", "Cato", "Dell", "Esme", "Fenn")
MAX_COMMANDS = 10_000


def play(players: int, mark: int, seed: int, index: int) -> list[NightEnded]:
    """One random legal game; the night endings it had."""
    chooser = random.Random(f"{seed}/{players}/{index}")
    rng = Rng(f"burial-mark/{seed}/{players}/{index}".encode())
    opening = GAME.setup(Options(burial_mark=mark), NAMES[:players], rng)
    batches = random_play(GAME, opening, rng, any_legal(GAME, chooser), MAX_COMMANDS)
    return [event for batch in batches for event in batch.events if isinstance(event, NightEnded)]


def tally(job: tuple[int, int, int, int]) -> tuple[int, int, Counter[str], int]:
    """Night endings over many games at one player count and mark (plus roads buried in all)."""
    players, mark, seed, games = job
    ways: Counter[str] = Counter()
    buried_in_all = 0
    for index in range(games):
        for night in play(players, mark, seed, index):
            ways[night.ending] += 1
            buried_in_all += night.through is None
    return players, mark, ways, buried_in_all


def shares(ways: Counter[str]) -> dict[str, float]:
    """Each ending's share of the nights."""
    nights = sum(ways.values())
    return {ending: ways[ending] / nights for ending in ENDINGS}


def choose(results: dict[int, dict[int, Counter[str]]]) -> dict[int, int]:
    """Per player count, the mark whose buried share is nearest 25%, within 15% to 35%."""
    chosen = {}
    for players, by_mark in results.items():
        fits = {m: shares(w)["buried"] for m, w in by_mark.items()}
        fits = {m: s for m, s in fits.items() if LOW <= s <= HIGH}
        if fits:
            chosen[players] = min(fits, key=lambda m: (abs(fits[m] - TARGET), m))
    return chosen


def _around(mark: int, spread: int) -> range:
    """The marks within ``spread`` of a default."""
    return range(mark - spread, mark + spread + 1)


def main() -> None:
    """Run the simulation and print a Markdown table of every mark tried."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per count and mark")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--spread", type=int, default=3, help="marks tried around the default")
    args = parser.parse_args()
    jobs = [
        (players, mark, args.seed, args.games)
        for players in range(MIN_SEATS, MAX_SEATS + 1)
        for mark in _around(BURIAL_MARKS[players], args.spread)
    ]
    results: dict[int, dict[int, Counter[str]]] = {}
    print("| players | mark | nights | " + " | ".join(ENDINGS) + " | road buried in all |")
    print("|---|---|---|" + "---|" * len(ENDINGS) + "---|")
    with Pool() as pool:
        for players, mark, ways, buried in pool.imap(tally, jobs):
            results.setdefault(players, {})[mark] = ways
            cells = " | ".join(f"{share:.1%}" for share in shares(ways).values())
            nights = sum(ways.values())
            row = f"| {players} | {mark} | {nights} | {cells} | {buried / nights:.1%} |"
            print(row, flush=True)
    print(f"chosen defaults: {choose(results)} (current: {BURIAL_MARKS})")


if __name__ == "__main__":
    main()
