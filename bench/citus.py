"""The command path over HTTP on a Citus cluster beside one Postgres (docs/scaling.md).

bench/http.py's client bots (N two-seat matches at once: legal actions, then a command, a new
match when one ends) against `hearthlog serve`'s app in one granian worker, pointed in turn at:

- ``postgres``: a plain database (no citus extension) on the coordinator's own server, so the
  same binaries, settings and machine;
- ``citus``: a database of the same cluster distributed by `hearthlog distribute` (a coordinator
  and two workers on loopback, tests/citus.py, 4 shards per table).

Rounds are interleaved (the order swaps every round) so the load of a shared machine falls on
both alike; the median round is kept. Every node runs without fsync (tests/citus.py), so the
figures compare the distribution's overhead, not disks. Bounded: about two minutes with the
defaults. Run:

    PYTHONPATH=. python -m bench.citus [--seconds 6] [--rounds 3] [--matches 16,64]
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from bench import common
from bench.http import Server, Table, play_tables
from service.store.migrations import apply_migrations, distribute
from service.store.provisioning import create_database, with_database
from tests.citus import SHARDS, Cluster, cluster

MATCHES = (16, 64)


async def one_target(target: str, url: str, n: int, seconds: float, warmup: float,
                     ) -> common.Measured:
    """A fresh server on ``url`` and N matches played for ``seconds``: the commands measured."""
    server = Server("granian", "bench.served:hearthlog", url)
    try:
        await server.ready("/health")
        tables = [Table(server.port, seed) for seed in range(n)]
        await asyncio.gather(*(table.open() for table in tables))
        commands, _ = await play_tables(tables, seconds, warmup)
        for table in tables:
            for wire in (table.host, *table.seats):
                await wire.close()
    finally:
        server.stop()
    print(f"  {target} n={n}: {commands.rate:.0f} commands/s p50 {commands.p50_ms} ms "
          f"p99 {commands.p99_ms} ms errors {commands.errors}", flush=True)
    return commands


async def run(made: Cluster, seconds: float, rounds: int, warmup: float,
              matches: tuple[int, ...]) -> dict[str, Any]:
    """Both targets at every N in every round, the order swapped each round."""
    plain = await create_database(made.coordinator.url, "bench_plain")
    await apply_migrations(plain)
    sharded = await made.database("bench_citus")
    await distribute(sharded)
    urls = {"postgres": plain, "citus": sharded}
    runs: dict[tuple[str, int], list[common.Measured]] = {}
    for number in range(rounds):
        order = ["postgres", "citus"] if number % 2 == 0 else ["citus", "postgres"]
        for n in matches:
            for target in order:
                measured = await one_target(target, urls[target], n, seconds, warmup)
                runs.setdefault((target, n), []).append(measured)
    levels = [{"target": target, "matches": n, "runs": runs[target, n],
               "median": common.median_run(runs[target, n])}
              for n in matches for target in ("postgres", "citus")]
    return {"benchmark": "citus", "seconds": seconds, "rounds": rounds, "shards": SHARDS,
            "workers": len(made.workers), "server": "granian, 1 worker",
            "postgres": await common.server_version(with_database(plain, "postgres")),
            "levels": levels}


def main() -> None:
    """Build (or find) Citus, start a cluster, run the benchmark, save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matches", default=",".join(map(str, MATCHES)))
    args = parser.parse_args()
    matches = tuple(int(n) for n in args.matches.split(","))

    def work() -> dict[str, Any]:
        """The whole benchmark on a fresh cluster."""
        with cluster() as made:
            return asyncio.run(run(made, args.seconds, args.rounds, args.warmup, matches))

    print(common.run_and_save("citus", work))


if __name__ == "__main__":
    main()
