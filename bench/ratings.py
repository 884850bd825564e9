"""Benchmark: the cost of rating one finished match, at 2 and at 20 seats.

Two measures, each in interleaved rounds (2 seats, then 20, then 2 again...) so a change in the
shared machine's load falls on both sizes alike. The fold alone (``projections.ratings.rate``:
openskill's Plackett-Luce over the table's subjects, the updates built), per match and per
subject's update, in this process's CPU time. And the whole apply on Postgres
(``RatingStore.apply``: the game's advisory lock, the applied check, the last sequence, the
subjects' current ratings, the rate, the inserts, one transaction), per match in wall time,
on an embedded Postgres. Subjects are drawn from a pool of 1,000 with fixed seeds, so most
tables meet subjects already rated. Run:

    PYTHONPATH=. python -m bench.ratings [--matches 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.common import migrated_database, postgres, run_and_save
from projections.ratings import RatedMatch, Rating, rate
from service.store.provisioning import create_pool
from service.store.ratings import Pending, RatingStore

SIZES = (2, 20)
SUBJECTS = [f"bench-player-{n}" for n in range(1000)]
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def tables(seats: int, count: int, seed: int) -> list[RatedMatch]:
    """``count`` rated matches of ``seats`` distinct subjects, with random places (some tied)."""
    chooser = random.Random(f"{seats} {seed}")
    made = []
    for _ in range(count):
        places = sorted(chooser.randint(1, seats) for _ in range(seats))
        made.append(RatedMatch(game="bench", match_id=str(uuid.UUID(int=chooser.getrandbits(128))),
                               subjects=tuple(chooser.sample(SUBJECTS, seats)),
                               placements=tuple(places)))
    return made


def folded(matches: list[RatedMatch]) -> float:
    """CPU seconds to rate the matches in turn, carrying the ratings on."""
    current: dict[str, Rating] = {}
    started = time.process_time()
    for sequence, match in enumerate(matches, start=1):
        for update in rate(match, sequence, current):
            current[update.subject] = update.after
    return time.process_time() - started


async def applied(store: RatingStore, matches: list[RatedMatch], sequence: int) -> float:
    """Wall seconds to apply the matches on Postgres, one transaction each."""
    started = time.perf_counter()
    for n, match in enumerate(matches):
        pending = Pending(match_id=match.match_id, game=match.game,
                          finished_at=EPOCH + timedelta(seconds=sequence + n),
                          placements=match.placements)
        await store.apply(pending, match, rate)
    return time.perf_counter() - started


async def measure(url: str, count: int, rounds: int) -> dict[str, Any]:
    """Interleaved rounds of both measures; per-match and per-update figures, and ratios."""
    pool = await create_pool(url, max_size=2)
    store = RatingStore(pool)
    fold: dict[int, list[float]] = {s: [] for s in SIZES}
    apply: dict[int, list[float]] = {s: [] for s in SIZES}
    sequence = 0
    try:
        for round_ in range(rounds):
            for seats in SIZES:
                matches = tables(seats, count, round_)
                fold[seats].append(folded(matches) / count)
                apply[seats].append(await applied(store, matches, sequence) / count)
                sequence += count
    finally:
        await pool.close()
    figures: dict[str, Any] = {}
    for seats in SIZES:
        per_match = statistics.median(fold[seats])
        figures[f"{seats}_seats"] = {
            "rate_us_per_match": round(per_match * 1e6, 1),
            "rate_us_per_update": round(per_match * 1e6 / seats, 1),
            "apply_ms_per_match": round(statistics.median(apply[seats]) * 1e3, 3),
            "apply_ms_per_update": round(statistics.median(apply[seats]) * 1e3 / seats, 3),
            "rounds_rate_us": [round(v * 1e6, 1) for v in fold[seats]],
            "rounds_apply_ms": [round(v * 1e3, 3) for v in apply[seats]],
        }
    two, twenty = figures["2_seats"], figures["20_seats"]
    figures["ratio_20_over_2"] = {
        "rate_per_match": round(twenty["rate_us_per_match"] / two["rate_us_per_match"], 2),
        "rate_per_update": round(twenty["rate_us_per_update"] / two["rate_us_per_update"], 2),
        "apply_per_match": round(twenty["apply_ms_per_match"] / two["apply_ms_per_match"], 2),
        "apply_per_update": round(twenty["apply_ms_per_update"] / two["apply_ms_per_update"], 2),
    }
    return figures


def main() -> None:
    """Run on an embedded Postgres and save bench/results/ratings.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300, help="matches per size per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        with postgres() as admin:
            url = asyncio.run(migrated_database(admin, "bench_ratings"))
            figures = asyncio.run(measure(url, args.matches, args.rounds))
        return {"matches_per_size_per_round": args.matches, "rounds": args.rounds, **figures}

    print(run_and_save("ratings", work).read_text())


if __name__ == "__main__":
    main()
