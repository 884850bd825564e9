"""Benchmark: one matching pass (domain/matchmaking.py, ``match_entries``) over 10,000 waiting
players, its time and its peak memory (tracemalloc), against a baseline pass that only sorts
the same entries as the matcher does (by pool and rating), run interleaved round by round so a
load spike hits both.

The queue is drawn from a seeded generator: the four games, rated or casual, two option sets,
a table size or a range within the game's seats, ratings about mu 25 (sigma 5), waits of 0 to
120 seconds, one in three allowing bots. Reported: the median time of each over the rounds,
the ratio of the pass to the baseline, the peak memory traced during one pass of each, and what
the pass formed (tables, players seated, bot seats). Run:

    PYTHONPATH=. python -m bench.matchmaking [--players 10000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from bench import common
from domain.games import GAMES
from domain.matchmaking import Entry, match_entries, pool_key

OPTIONS: list[dict[str, Any]] = [{}, {"variant": "b"}]  # two pools per game and play kind


def queue(players: int, seed: int = 37) -> list[Entry]:
    """A seeded queue of ``players`` entries over every game."""
    draw = random.Random(seed)
    games = sorted(GAMES.values(), key=lambda g: g.id)
    entries = []
    for n in range(players):
        game = draw.choice(games)
        low = draw.randint(game.min_seats, min(game.max_seats, game.min_seats + 2))
        high = low if draw.random() < 0.5 else draw.randint(low, min(game.max_seats, low + 2))
        entries.append(Entry(player=f"p{n:06}", game=game.id, seats_min=low, seats_max=high,
                             rated=draw.random() < 0.6, options=draw.choice(OPTIONS),
                             bots=draw.random() < 1 / 3, mu=draw.gauss(25.0, 5.0),
                             waited=draw.uniform(0.0, 120.0)))
    return entries


def baseline(entries: list[Entry]) -> list[Entry]:
    """Only the sort the matcher starts with."""
    return sorted(entries, key=lambda e: (pool_key(e), e.mu, e.player))


def timed(work: Callable[[], object]) -> float:
    """Seconds one call takes (the collector run first, off the clock)."""
    gc.collect()
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def peak(work: Callable[[], object]) -> int:
    """The peak bytes traced during one call."""
    gc.collect()
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def run(players: int, rounds: int) -> dict[str, Any]:
    """Interleaved rounds of the pass and the baseline; their medians, ratio and peaks."""
    entries = queue(players)
    passes, sorts = [], []
    for _ in range(rounds):
        passes.append(timed(lambda: match_entries(entries)))
        sorts.append(timed(lambda: baseline(entries)))
    tables = match_entries(entries)
    pass_s, sort_s = common.median(passes), common.median(sorts)
    return {
        "players": players, "rounds": rounds,
        "pass_seconds": pass_s, "baseline_sort_seconds": sort_s,
        "ratio": round(pass_s / sort_s, 2) if sort_s else None,
        "pass_peak_mib": round(peak(lambda: match_entries(entries)) / 2**20, 2),
        "baseline_peak_mib": round(peak(lambda: baseline(entries)) / 2**20, 2),
        "tables": len(tables),
        "players_seated": sum(len(t.players) for t in tables),
        "bot_seats": sum(t.bots for t in tables),
        "pass_rounds_seconds": [round(s, 4) for s in passes],
        "baseline_rounds_seconds": [round(s, 4) for s in sorts],
    }


def main() -> None:
    """Parse the arguments, run, save bench/results/matchmaking.json and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    path = common.run_and_save("matchmaking", lambda: run(args.players, args.rounds))
    print(path.read_text())


if __name__ == "__main__":
    main()
