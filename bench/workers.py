"""Benchmark: the command path at 1 and 2 workers, beside bare endpoints at the same counts.

At each worker count W, in each round, three servers run one after the other under granian with
W workers, on one Postgres: the bare app (`bench/served.py`: one asyncpg INSERT per POST), our
service answering `GET /health` (its lightest route: one `SELECT 1`), and our service with N
matches played by each of `bench/http.py`'s two clients: one request a move (each seat follows
its stream and sends from its own last answer or its stream's latest update; "commands") and the
old client (a legal-actions GET, then the command; "two-request-commands"). One server at a
time, so the database's connections fit (W x 33 each) and no server steals CPU from another.
Rounds alternate the counts (1, 2, 1, 2, ...); the median round is kept and each ratio is the
median of the per-round ratios. The load generator is one Python process on the same two
cores; its CPU share is reported beside each run, since it caps what any server can be shown
to do. Run:

    PYTHONPATH=. python -m bench.workers [--seconds 5] [--rounds 3] [--matches 64]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import time
from typing import Any

import msgspec

from bench import common
from bench.http import Server, Table, Window, bare_loops, play_tables
from bench.wire import Wire
from service.store.provisioning import drop_database

COUNTS = (1, 2)


async def health_loops(port: int, n: int, seconds: float, warmup: float) -> common.Measured:
    """N loops of GET /health on our service."""
    window = Window(seconds, warmup)

    async def loop() -> None:
        """One connection's requests, one after another."""
        wire = Wire(port)
        while window.open():
            began = time.perf_counter()
            status, _ = await wire.request("GET", "/health")
            window.note(window.commands, began)
            window.errors += status != 200
        await wire.close()

    await asyncio.gather(*(loop() for _ in range(n)))
    return common.summarise("health", n, window.commands, seconds, window.errors)


def client_cpu() -> float:
    """CPU seconds this (load generating) process has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measured(run: Any, seconds: float, warmup: float) -> tuple[Any, float]:
    """What ``run`` measured, and the load generator's CPU share over it."""
    cpu, wall = client_cpu(), time.perf_counter()
    result = await run
    return result, round((client_cpu() - cpu) / (time.perf_counter() - wall), 2)


async def one_count(url: str, workers: int, n: int, seconds: float,
                    warmup: float) -> dict[str, Any]:
    """The three servers at one worker count, one after the other."""
    found: dict[str, Any] = {}
    for name, target, ready in (("bare", "bench.served:bare", "/"),
                                ("hearthlog", "bench.served:hearthlog", "/health")):
        server = Server("granian", target, url, workers)
        try:
            await server.ready(ready)
            await asyncio.sleep(1)  # every worker up, not only the first to answer
            if name == "bare":
                found["bare"] = await measured(bare_loops(server.port, n, seconds, warmup),
                                               seconds, warmup)
                continue
            found["health"] = await measured(health_loops(server.port, n, seconds, warmup),
                                             seconds, warmup)
            for follow, prefix in ((True, ""), (False, "two-request-")):
                tables = [Table(server.port, seed, follow) for seed in range(n)]
                await asyncio.gather(*(table.open() for table in tables))
                (commands, requests), share = await measured(
                    play_tables(tables, seconds, warmup), seconds, warmup)
                await asyncio.gather(*(table.close() for table in tables))
                found[f"{prefix}commands"] = (commands, share)
                found[f"{prefix}requests"] = (requests, share)
        finally:
            server.stop()
    for name, (m, share) in found.items():
        print(f"  workers={workers} {name}: {m.rate:.0f}/s p50 {m.p50_ms} ms p99 {m.p99_ms} ms "
              f"(load generator CPU {share})", flush=True)
    return {name: {**msgspec.to_builtins(m), "client_cpu": share}
            for name, (m, share) in found.items()}


def summary(runs: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """Medians per count, and 2 workers ÷ 1 per round for each measure."""
    out: dict[str, Any] = {}
    for count, rounds in runs.items():
        out[str(count)] = {name: {field: statistics.median(r[name][field] for r in rounds)
                                  for field in ("rate", "p50_ms", "p99_ms", "client_cpu")}
                           for name in rounds[0]}
        for client in ("", "two-request-"):
            out[str(count)][f"{client}commands_per_bare"] = statistics.median(
                r[f"{client}commands"]["rate"] / r["bare"]["rate"] for r in rounds)
    for name in runs[1][0]:
        for field in ("rate", "p99_ms"):
            out.setdefault("two_over_one", {})[f"{name}_{field}"] = round(statistics.median(
                two[name][field] / one[name][field] for one, two in zip(runs[1], runs[2])), 2)
    return out


async def run(admin_url: str, seconds: float, rounds: int, warmup: float,
              n: int) -> dict[str, Any]:
    """Every count in every round, on one database."""
    url = await common.migrated_database(admin_url, "bench_workers")
    runs: dict[int, list[dict[str, Any]]] = {count: [] for count in COUNTS}
    try:
        for _ in range(rounds):
            for count in COUNTS:
                runs[count].append(await one_count(url, count, n, seconds, warmup))
    finally:
        await drop_database(admin_url, "bench_workers")
    return {"benchmark": "workers", "seconds": seconds, "rounds": rounds, "matches": n,
            "runs": {str(k): v for k, v in runs.items()}, "summary": summary(runs)}


def main() -> None:
    """Run the benchmark on a throwaway Postgres and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matches", type=int, default=64)
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        """The whole benchmark on a throwaway Postgres."""
        with common.postgres() as admin_url:
            return asyncio.run(run(admin_url, args.seconds, args.rounds, args.warmup,
                                   args.matches))

    print(common.run_and_save("workers", work))


if __name__ == "__main__":
    main()
