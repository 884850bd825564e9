"""Benchmark: the command path at 1 and 2 workers, beside bare endpoints at the same counts, served
directly by granian and routed by match through HAProxy.

Four set-ups: granian with W workers on one port ("direct", W = 1, 2), and W one-worker granian
servers behind HAProxy hashing the match id, as `hearthlog serve --route-by-match` runs them
("routed", W = 1, 2: one server behind the proxy shows the proxy's own cost apart). At each, in
each round, three servers run one after the other, on one Postgres: the bare app
(`bench/served.py`: one asyncpg INSERT per POST; behind the proxy it goes round robin, as every
route naming no match does), our service answering `GET /health` (its lightest route: one
`SELECT 1`), and our service with N matches played by each of `bench/http.py`'s two clients: one
request a move (each seat follows its stream and sends from its own last answer or its stream's
latest update; "commands") and the old client (a legal-actions GET, then the command;
"two-request-commands"). One server at a time, so the database's connections fit (W x 33 each)
and no server steals CPU from another. Rounds alternate the set-ups (direct 1, direct 2, routed 1,
routed 2), each round starting one set-up later than the one before; the median round is kept
and each ratio is the median of the per-round ratios; the load average is noted at each set-up's
start. A routed run also counts its matches per server (from HAProxy's log: the server that took
each match's start). The load generator is one Python process on the same two cores; its CPU
share is reported beside each run, since it caps what any server can be shown to do, and each
run's CPU per operation of the serving processes (the proxy's included), of Postgres and of the
load generator, whose sum is what an operation costs the machine (bench/http.py). Run:

    PYTHONPATH=. python -m bench.workers [--seconds 5] [--rounds 3] [--matches 64]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import psutil

from bench import common
from bench.http import Server, Table, Window, bare_loops, play_tables, with_cpu
from bench.wire import Wire
from service.cli.routing import free_port, haproxy_binary, haproxy_config, logged_routes
from service.store.provisioning import drop_database

SETUPS = (("direct", 1), ("direct", 2), ("routed", 1), ("routed", 2))


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


class Proxy(Server):
    """HAProxy routing by match in front of servers' ports, as `hearthlog serve
    --route-by-match` configures it, its log (one line a request) in a file; waited for and
    stopped as a server is."""

    def __init__(self, ports: list[int], health: bool, folder: Path) -> None:
        self.port, config, self.log = free_port(), folder / "haproxy.cfg", folder / "haproxy.log"
        config.write_text(haproxy_config("127.0.0.1", self.port, ports, health=health))
        with self.log.open("w") as sink:
            self.process = subprocess.Popen([haproxy_binary(), "-db", "-f", str(config)],
                                            stdout=sink, stderr=subprocess.STDOUT)

    def split(self) -> dict[str, int]:
        """Matches per server so far: the server that took each match's start."""
        return dict(Counter(line["route"] for line in logged_routes(self.log.read_text())
                            if line["method"] == "POST" and line["path"].endswith("/start")))


@contextlib.asynccontextmanager
async def serving(kind: str, workers: int, target: str, ready: str,
                  url: str) -> AsyncIterator[tuple[Server, list[Server]]]:
    """``target`` in one granian of ``workers`` workers (direct), or in ``workers`` one-worker
    granians behind HAProxy routing by match (routed): what the clients talk to, and every
    process serving (whose CPU is the server's); stopped after the block."""
    servers = [Server("granian", target, url, workers if kind == "direct" else 1)
               for _ in range(1 if kind == "direct" else workers)]
    folder, proxy = Path(tempfile.mkdtemp(prefix="bench-workers-")), None
    try:
        for server in servers:
            await server.ready(ready)
        if kind == "routed":
            proxy = Proxy([server.port for server in servers], ready == "/health", folder)
            await proxy.ready(ready)
        await asyncio.sleep(1)  # every worker up, not only the first to answer
        yield proxy or servers[0], servers + ([proxy] if proxy else [])
    finally:
        for each in ([proxy] if proxy else []) + servers:
            each.stop()
        shutil.rmtree(folder, ignore_errors=True)


async def one_setup(url: str, kind: str, workers: int, n: int, seconds: float,
                    warmup: float, postgres: psutil.Process | None = None) -> dict[str, Any]:
    """The three servers of one set-up, one after the other; each run with the CPU per
    operation of the serving processes, of Postgres (``postgres``, its postmaster) and of the
    load generator (bench.http.with_cpu)."""
    found: dict[str, Any] = {}
    load, split = common.load_average(), Counter[str]()
    async with serving(kind, workers, "bench.served:bare", "/", url) as (served, every):
        found["bare"] = await measured(with_cpu(every, bare_loops(
            served.port, n, seconds, warmup), seconds, warmup, postgres), seconds, warmup)
    async with serving(kind, workers, "bench.served:hearthlog", "/health", url) as (served,
                                                                                    every):
        found["health"] = await measured(with_cpu(every, health_loops(
            served.port, n, seconds, warmup), seconds, warmup, postgres), seconds, warmup)
        for follow, prefix in ((True, ""), (False, "two-request-")):
            tables = [Table(served.port, seed, follow) for seed in range(n)]
            await asyncio.gather(*(table.open() for table in tables))
            (commands, requests), share = await measured(with_cpu(
                every, play_tables(tables, seconds, warmup), seconds, warmup, postgres),
                seconds, warmup)
            await asyncio.gather(*(table.close() for table in tables))
            found[f"{prefix}commands"] = (commands, share)
            found[f"{prefix}requests"] = (requests, share)
        if isinstance(served, Proxy):
            split.update(served.split())
    for name, (m, share) in found.items():
        print(f"  {kind} workers={workers} {name}: {m.rate:.0f}/s p50 {m.p50_ms} ms p99 "
              f"{m.p99_ms} ms (load generator CPU {share}); CPU µs each: servers "
              f"{m.server_cpu_us:.0f}, Postgres {m.postgres_cpu_us:.0f}, load generator "
              f"{m.client_cpu_us:.0f}", flush=True)
    if split:
        print(f"  {kind} workers={workers} matches per server: {dict(sorted(split.items()))}",
              flush=True)
    return {**{name: {**msgspec.to_builtins(m), "client_cpu": share}
               for name, (m, share) in found.items()},
            "load_average": load, "matches_per_server": dict(sorted(split.items()))}


MEASURES = ("bare", "health", "commands", "requests", "two-request-commands",
            "two-request-requests")


COSTS = ("server_cpu_us", "postgres_cpu_us", "client_cpu_us")  # CPU per operation (µs)


def summary(runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Medians per set-up with commands ÷ its own bare, and per-round ratios between set-ups:
    2 workers ÷ 1 (direct and routed), and routed ÷ direct at each count."""
    out: dict[str, Any] = {}
    for setup, rounds in runs.items():
        out[setup] = {name: {field: statistics.median(r[name][field] for r in rounds)
                             for field in ("rate", "p50_ms", "p99_ms", "client_cpu",
                                           *COSTS)}
                      for name in MEASURES}
        for client in ("", "two-request-"):
            out[setup][f"{client}commands_per_bare"] = round(statistics.median(
                r[f"{client}commands"]["rate"] / r["bare"]["rate"] for r in rounds), 3)
    for label, over, under in (("two_over_one", "direct-2", "direct-1"),
                               ("routed_two_over_one", "routed-2", "routed-1"),
                               ("routed_over_direct_1", "routed-1", "direct-1"),
                               ("routed_over_direct_2", "routed-2", "direct-2")):
        out[label] = {f"{name}_{field}": round(statistics.median(
            a[name][field] / b[name][field] for a, b in zip(runs[over], runs[under])), 2)
            for name in MEASURES for field in ("rate", "p99_ms")}
    return out


async def run(admin_url: str, seconds: float, rounds: int, warmup: float,
              n: int) -> dict[str, Any]:
    """Every set-up in every round, on one database."""
    url = await common.migrated_database(admin_url, "bench_workers")
    postgres = await common.postmaster(url)
    runs: dict[str, list[dict[str, Any]]] = {f"{kind}-{count}": [] for kind, count in SETUPS}
    try:
        for number in range(rounds):  # each round starts one set-up later: no fixed order
            for kind, count in SETUPS[number % len(SETUPS):] + SETUPS[:number % len(SETUPS)]:
                runs[f"{kind}-{count}"].append(await one_setup(url, kind, count, n, seconds,
                                                               warmup, postgres))
    finally:
        await drop_database(admin_url, "bench_workers")
    return {"benchmark": "workers", "seconds": seconds, "rounds": rounds, "matches": n,
            "runs": runs, "summary": summary(runs)}


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
