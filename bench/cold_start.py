"""Benchmark 4: cold start of a long match, from nothing in memory to a seat's view.

Matches are stored through PostgresStore exactly as the service appends them (one append per
command): a 2-seat short match of about 100 events; among random 6-seat long matches, the one
nearest 1,000 events and the longest; and a synthetic stream of at least 10,000 events built
by repeating the longest match's real rounds (labelled synthetic: no real table plays so long).
Timed: a fresh MatchService (empty state cache) answering seat 0's view, in process: the very
first time (no snapshot yet: it folds every event and leaves a snapshot) and then as usual
(a service writes snapshots as play goes on). Beside it, in the same run: the raw fetch of the
match's events (one SELECT, no decoding: the floor of any full fold) and the warm view (the same
service asked again). Run:

    PYTHONPATH=. python -m bench.cold_start [--samples 150] [--repeats 7]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from typing import Any

from bench import common
from bench.matches import Played, play
from domain.games import GAMES
from projections.summary import Summary
from service import auth
from service.matches import MatchService
from service.store import Change, NewEvent, NewMatch, PostgresStore
from service.store.provisioning import create_pool, drop_database

GAME = GAMES["wick-and-ember"]
SYNTHETIC_EVENTS = 10_000
CHUNK = 100
TOKEN = "bench-seat-0-token"
FETCH = "SELECT version, type, data, metadata, recorded_at, hash FROM events WHERE match_id = $1"


def streams(samples: int) -> dict[str, list[list[NewEvent]]]:
    """The matches to time, each as its batches of events (one batch per command)."""
    short = min((play(GAME, i, 2, {"match_length": "short"}) for i in range(20)),
                key=lambda p: abs(len(p.events()) - 100))
    long = [play(GAME, i, 6, {"match_length": "long"}) for i in range(samples)]
    near = min(long, key=lambda p: abs(len(p.events()) - 1000))
    longest = max(long, key=lambda p: len(p.events()))
    return {"about 100": short.batches, "about 1,000": near.batches,
            "longest random (6 seats, long)": longest.batches,
            "synthetic 10,000 (repeated rounds)": synthetic(longest)}


def synthetic(base: Played) -> list[list[NewEvent]]:
    """The base match's opening, then its rounds again and again, in batches of CHUNK events."""
    events = base.events()
    dealt = [i for i, e in enumerate(events) if e.type == "round_dealt"]
    ended = next(i for i, e in enumerate(events) if e.type == "night_ended")
    rounds = [events[a:b] for a, b in zip(dealt, [*dealt[1:], ended], strict=True)]
    stream = events[:dealt[0]]
    while len(stream) < SYNTHETIC_EVENTS:
        stream += rounds[len(stream) % len(rounds)]
    opening = base.batches[:1 + seats_of(base.batches)]
    rest = stream[sum(len(b) for b in opening):]
    return opening + [rest[i:i + CHUNK] for i in range(0, len(rest), CHUNK)]


def seats_of(batches: list[list[NewEvent]]) -> int:
    """How many seats the stream's lobby fills."""
    return sum(event.type == "seat_joined" for batch in batches for event in batch)


async def store_match(store: PostgresStore, batches: list[list[NewEvent]]) -> tuple[str, int]:
    """Store a match through the store's own create and append; seat 0 gets TOKEN."""
    match_id, seats = str(uuid.uuid4()), seats_of(batches)
    first = batches[0][0]
    await store.create_match(NewMatch(
        match_id=match_id, game=GAME.id, rules_version=GAME.rules_version, seats=seats,
        practice=False, tournament=None, label=None, seed_commitment="0" * 64,
        server_seed=bytes(32), host_token_hash=None, first=first, summary=Summary()))
    version = 1
    for n, batch in enumerate(batches[1:]):
        token = (0, auth.token_hash(TOKEN)) if n == 0 else None
        change = Change(status="lobby" if n < seats else "playing", summary=Summary(),
                        seat_token=token)
        await store.append(match_id, version, batch, change)
        version += len(batch)
    return match_id, version


async def cold_view(pool: Any, match_id: str) -> tuple[float, MatchService]:
    """Seconds for a fresh service to answer seat 0's view, and that service."""
    service = MatchService(PostgresStore(pool))
    began = time.perf_counter()
    await service.view(match_id, TOKEN)
    return time.perf_counter() - began, service


async def time_match(pool: Any, match_id: str, repeats: int) -> dict[str, float]:
    """Milliseconds: the very first cold view (no snapshot yet), then medians of cold views,
    of the raw fetch of every event and of warm views."""
    first, service = await cold_view(pool, match_id)
    await asyncio.gather(*service.cache._writes)  # the snapshot that first load left behind
    cold, fetch, warm = [], [], []
    for _ in range(repeats):
        seconds, service = await cold_view(pool, match_id)
        cold.append(seconds)
        began = time.perf_counter()
        await service.view(match_id, TOKEN)
        warm.append(time.perf_counter() - began)
        began = time.perf_counter()
        await pool.fetch(FETCH, uuid.UUID(match_id))
        fetch.append(time.perf_counter() - began)
    timings = {"first_cold_ms": first, "cold_ms": statistics.median(cold),
               "fetch_ms": statistics.median(fetch), "warm_ms": statistics.median(warm)}
    return {name: round(value * 1000, 2) for name, value in timings.items()}


async def run(admin_url: str, samples: int, repeats: int) -> dict[str, Any]:
    """Store every stream, then time each."""
    url = await common.migrated_database(admin_url, "bench_cold")
    pool = await create_pool(url)
    results = []
    try:
        for label, batches in streams(samples).items():
            match_id, events = await store_match(PostgresStore(pool), batches)
            timing = await time_match(pool, match_id, repeats)
            print(f"  cold start {label}: {events} events, {timing}", flush=True)
            results.append({"match": label, "events": events, **timing})
    finally:
        await pool.close()
        await drop_database(admin_url, "bench_cold")
    return {"benchmark": "cold_start", "repeats": repeats, "samples": samples,
            "results": results}


def main() -> None:
    """Run the benchmark on a throwaway Postgres and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=150, help="random 6-seat long matches")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    def work() -> dict[str, Any]:
        """The whole benchmark on a throwaway Postgres."""
        with common.postgres() as admin_url:
            return asyncio.run(run(admin_url, args.samples, args.repeats))

    print(common.run_and_save("cold_start", work))


if __name__ == "__main__":
    main()
