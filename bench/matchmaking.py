"""Benchmark: one matching pass (domain/matchmaking.py, ``match_entries``) over 10,000 waiting
players, its time and its peak memory (tracemalloc), against a baseline pass that only sorts
the same entries as the matcher does (by pool and rating), run interleaved round by round so a
load spike hits both.

The queue is drawn from a seeded generator: the four games, rated or casual, two option sets,
a table size or a range within the game's seats, ratings about mu 25 (sigma 5), waits of 0 to
120 seconds, one in three allowing bots. Reported: the median time of each over the rounds,
the ratio of the pass to the baseline, the peak memory traced during one pass of each, and what
the pass formed (tables, players seated, bot seats).

With ``--database``, the same queue is also written to a throwaway embedded Postgres (migrated,
the rows copied in) and the server's claiming step is timed: ``Matchmaker.form`` for each game
(one transaction: the waiting rows read, their ratings read through RatingService, the matcher,
every table written and its players seated), the queue written afresh before each round. The
matches' set-up after it (a create, a seat each, a start: the command path's appends,
docs/benchmarks.md) is not part of it. Run:

    PYTHONPATH=. python -m bench.matchmaking [--players 10000] [--rounds 7] [--database]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import secrets
import time
import tracemalloc
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bench import common
from domain.games import GAMES
from domain.matchmaking import Entry, Settings, match_entries, pool_key
from service.matches import MatchService
from service.matchmaking.matcher import Matchmaker
from service.matchmaking.queue import Bell
from service.ratings import RatingService
from service.store import PostgresStore
from service.store.provisioning import create_pool
from service.store.queue import QueueStore
from service.store.ratings import RatingStore

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


NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


async def fill(pool: Any, entries: list[Entry]) -> None:
    """The queue emptied, then written with ``entries`` (ids made UUIDs), by COPY."""
    await pool.execute("TRUNCATE queue_entries, queue_tables")
    rows = [(uuid.uuid5(uuid.NAMESPACE_URL, e.player), e.player, e.game, e.seats_min,
             e.seats_max, e.rated, e.options, e.bots, secrets.token_bytes(32),
             NOW - timedelta(seconds=e.waited)) for e in entries]
    async with pool.acquire() as conn:
        await conn.copy_records_to_table("queue_entries", records=rows, columns=[
            "player_id", "name", "game", "seats_min", "seats_max", "rated", "options", "bots",
            "ticket_key", "joined_at"])


async def claimed(url: str, entries: list[Entry], rounds: int) -> dict[str, Any]:
    """Median seconds of the claiming step over every game, and what it seated."""
    pool = await create_pool(url)
    try:
        store = QueueStore(pool)
        maker = Matchmaker(store, MatchService(PostgresStore(pool)),
                           RatingService(RatingStore(pool)), settings=Settings(),
                           clock=lambda: NOW, bell=Bell())
        times, tables = [], 0
        for _ in range(rounds):
            await fill(pool, entries)
            started = time.perf_counter()
            tables = sum([len(await maker.form(game)) for game in sorted(GAMES)])
            times.append(time.perf_counter() - started)
        seated = await pool.fetchval("SELECT count(*) FROM queue_entries WHERE seat IS NOT NULL")
        return {"claim_seconds": common.median(times), "claim_tables": tables,
                "claim_players_seated": seated,
                "claim_rounds_seconds": [round(t, 3) for t in times]}
    finally:
        await pool.close()


def with_database(players: int, rounds: int) -> dict[str, Any]:
    """The claiming step on an embedded Postgres."""
    with common.postgres() as admin:
        url = asyncio.run(common.migrated_database(admin, "bench_matchmaking"))
        return asyncio.run(claimed(url, queue(players), rounds))


def main() -> None:
    """Parse the arguments, run, save bench/results/matchmaking.json and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--database", action="store_true",
                        help="also time the claiming step on an embedded Postgres")
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        """The pure pass, then (asked) the claim on Postgres."""
        found = run(args.players, args.rounds)
        return {**found, **(with_database(args.players, 3) if args.database else {})}

    path = common.run_and_save("matchmaking", work)
    print(path.read_text())


if __name__ == "__main__":
    main()
