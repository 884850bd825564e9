"""Benchmark: what synchronous replication costs appends, against asynchronous, in the same run.

A primary and a streaming standby on loopback (tests/standby.py: the embedded Postgres binaries,
``pg_basebackup -R``), both with ``fsync = on`` and ``synchronous_commit = on``, as production
runs them: a synchronous commit waits for the standby to flush the commit to its disk as well as
for the primary's own flush. Each round measures both modes back to back at each concurrency,
the primary's ``synchronous_standby_names`` switched between them (ALTER SYSTEM, a reload, and a
wait until ``pg_stat_replication`` shows the standby in that mode), the order alternating from
round to round; C writers each append real Wick & Ember events to a match of their own through
``PostgresStore.append``, one at a time, for a fixed time. The figure kept is the median over
rounds of synchronous ÷ asynchronous (appends/s, p50, p99). Bounded: about (2 x seconds +
warm-up) x concurrencies x rounds, plus a few seconds to make the pair.

    PYTHONPATH=. python -m bench.replication [--seconds 3] [--warmup 1] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from typing import Any

from bench import common
from bench.appends import Ours, sample
from projections.summary import Summary
from service.store import StoredEvent
from service.store.migrations import apply_migrations
from service.store.provisioning import create_database, create_pool
from tests.standby import DURABLE, Pair, standby_pair

CONCURRENCY = (1, 16)
SETTINGS = DURABLE.replace("fsync = off", "fsync = on")


async def measure(pair: Pair, url: str, synchronous: bool, writers: int, seconds: float,
                  warmup: float, events: list[StoredEvent], summary: Summary) -> common.Measured:
    """``writers`` appending for ``seconds`` with the standby in one mode."""
    if synchronous:
        await pair.replicate_synchronously()
    else:
        await pair.replicate_asynchronously()
    pool = await create_pool(url, min_size=writers, max_size=writers)
    try:
        ours = Ours(pool, events, summary)
        await ours.prepare(writers, events[0])
        name = "synchronous" if synchronous else "asynchronous"
        measured = await common.timed_workers(name, writers, ours.append, seconds, warmup)
        await ours.store.announcer.drain()
    finally:
        await pool.close()
    return measured


def ratios(sync: list[common.Measured], sync_off: list[common.Measured]) -> dict[str, float]:
    """The median over rounds of synchronous ÷ asynchronous, per figure."""
    return {field: round(statistics.median(getattr(a, field) / getattr(b, field)
                                           for a, b in zip(sync, sync_off, strict=True)), 3)
            for field in ("rate", "p50_ms", "p99_ms")}


async def run(pair: Pair, seconds: float, rounds: int, warmup: float) -> dict[str, Any]:
    """Every concurrency in interleaved rounds of both modes."""
    url = await create_database(pair.primary_url, "bench_replication")
    await apply_migrations(url)
    events, summary = sample()
    results = []
    for writers in CONCURRENCY:
        runs: dict[str, list[common.Measured]] = {"synchronous": [], "asynchronous": []}
        for number in range(rounds):
            for synchronous in ((True, False) if number % 2 == 0 else (False, True)):
                measured = await measure(pair, url, synchronous, writers, seconds, warmup,
                                         events, summary)
                runs[measured.name].append(measured)
                print(f"  replication c={writers} {measured.name}: {measured.rate:.0f}/s "
                      f"p50 {measured.p50_ms} ms p99 {measured.p99_ms} ms", flush=True)
        results.append({"concurrency": writers, "runs": runs,
                        "synchronous_over_asynchronous": ratios(runs["synchronous"],
                                                                runs["asynchronous"])})
    return {"benchmark": "replication", "seconds": seconds, "rounds": rounds,
            "settings": "fsync = on, synchronous_commit = on; loopback standby",
            "server_version": await common.server_version(url), "results": results}


def main() -> None:
    """Run the benchmark on a throwaway primary and standby and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        """The whole benchmark on a throwaway pair."""
        with standby_pair(SETTINGS) as pair:
            return asyncio.run(run(pair, args.seconds, args.rounds, args.warmup))

    print(common.run_and_save("replication", work))


if __name__ == "__main__":
    main()
