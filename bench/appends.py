"""Benchmark 1: single-event appends with the expected-version check, beside a floor and a peer.

Each of C writers owns one match and appends real Wick & Ember events to it one at a time,
naming the version it expects (as the service does), for a fixed time. Beside it, on the same
Postgres in the same run:
- the floor: a plain asyncpg INSERT of the same row into a table with the same primary key,
  same pool, same concurrency (no version check, no match row, no notification);
- the floor with a version row: that INSERT plus the least version check, a narrow row per
  stream updated where the version is the expected one, in the same statement (what any
  store that keeps a version row apart from the events pays at least);
- the peer: the ``eventsourcing`` library's Postgres recorders (psycopg 3, its own schema),
  one thread and one pooled connection per writer: the application recorder (what its
  Application uses: table lock + NOTIFY, like our notification) and the aggregate recorder
  (a single INSERT);
- the floor with the peer's row (uuid, version, type, the event as bytea: no JSON for Postgres
  to parse, no jsonb metadata, hash or time), to tell the row's cost from the client's;
- the floor batched: its INSERT sent through the store's batches as ours is (what piles up
  while a batch is in flight, pipelined in one round trip and one transaction), so ours ÷ it
  compares the two statements when both travel together;
- the floor and ours again with the writers split over two processes (half each, each with
  its own event loop and pool, started together; their rates added): whether one event loop
  driving every connection, not Postgres, was what held the one-process figures back.
Systems are measured in interleaved rounds and the median round is kept. With ``--before
COMMIT`` only three systems run, each in a process of its own with all the writers, the order
alternating from round to round: the floor, ours, and ours as that commit has it (its code in a
git worktree, on a database of its own made by that commit's migrations, so a change of schema
is measured too), so a change to the store is measured against the code before it; beside each
rate, the CPU each append cost the client process and the Postgres server (µs), a figure the
other work on a shared machine moves far less than a rate. Run:

    PYTHONPATH=. python -m bench.appends [--seconds 4] [--rounds 3] [--concurrency 1,8,32]
        [--before COMMIT]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import asyncpg
import msgspec
import psutil

from bench import common
from bench.fanout import before_tree
from projections.summary import Summary
from service.store import Change, NewEvent, NewMatch, PostgresStore, StoredEvent
from service.store.migrations import apply_migrations
from service.store.provisioning import create_database, create_pool, drop_database
from tests.replay.random_matches import play

CONCURRENCY = (1, 8, 32)
BENCH = Path(__file__).resolve().parent
FLOOR_TABLE = """
CREATE TABLE IF NOT EXISTS floor_events (
    match_id uuid NOT NULL, version int NOT NULL, type text NOT NULL, data json NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{}', recorded_at timestamptz NOT NULL DEFAULT now(),
    hash bytea NOT NULL, PRIMARY KEY (match_id, version))"""
FLOOR_INSERT = """INSERT INTO floor_events (match_id, version, type, data, metadata, hash)
    VALUES ($1, $2, $3, $4, $5, $6)"""
BATCHED_INSERT = FLOOR_INSERT + " RETURNING recorded_at"  # one row each, as a batch needs
BYTES_TABLE = """
CREATE TABLE IF NOT EXISTS floor_bytes (
    match_id uuid NOT NULL, version int NOT NULL, type text NOT NULL, data bytea NOT NULL,
    PRIMARY KEY (match_id, version))"""
BYTES_INSERT = "INSERT INTO floor_bytes (match_id, version, type, data) VALUES ($1, $2, $3, $4)"
VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS floor_versions (match_id uuid PRIMARY KEY, version int NOT NULL)"""
VERSIONED_INSERT = """
WITH head AS (
    UPDATE floor_versions SET version = $2 WHERE match_id = $1 AND version = $2 - 1 RETURNING 1
)
INSERT INTO floor_events (match_id, version, type, data, metadata, hash)
SELECT $1, $2, $3, $4, $5, $6 FROM head"""


def sample() -> tuple[list[StoredEvent], Summary]:
    """Real events of a 6-seat random match (after its lobby), and its last in-play summary."""
    played = play(4)
    events = [e for e in played.events if e.type not in ("match_created", "seat_joined")]
    return events, Summary(names=tuple("ABCDEF"), bots=(None,) * 6)


class Ours:
    """PostgresStore.append, one match per writer."""

    def __init__(self, pool: asyncpg.Pool, events: list[StoredEvent], summary: Summary) -> None:
        self.store, self.events, self.summary = PostgresStore(pool), events, summary
        self.matches: list[tuple[str, int]] = []

    async def prepare(self, writers: int, first: StoredEvent) -> None:
        """One fresh match per writer."""
        self.matches = []
        for _ in range(writers):
            match_id = str(uuid.uuid4())
            await self.store.create_match(NewMatch(
                match_id=match_id, game="wick-and-ember", rules_version="1", seats=6,
                practice=False, tournament=None, label=None, seed_commitment="0" * 64,
                server_seed=bytes(32), host_token_hash=None, summary=self.summary,
                first=NewEvent(type=first.type, data=first.data, metadata=first.metadata)))
            self.matches.append((match_id, 1))

    async def append(self, writer: int) -> None:
        """Append the writer's next event at the version it expects."""
        match_id, version = self.matches[writer]
        event = self.events[version % len(self.events)]
        new = NewEvent(type=event.type, data=event.data, metadata=event.metadata)
        change = Change(status="playing", summary=self.summary)
        await self.store.append(match_id, version, [new], change)
        self.matches[writer] = (match_id, version + 1)


class Floor:
    """A plain INSERT of the same row into a table with the same primary key."""

    def __init__(self, pool: asyncpg.Pool, events: list[StoredEvent]) -> None:
        self.pool, self.events = pool, events
        self.streams: list[tuple[uuid.UUID, int]] = []

    async def prepare(self, writers: int) -> None:
        """One fresh stream per writer."""
        await self.pool.execute(FLOOR_TABLE)
        self.streams = [(uuid.uuid4(), 0) for _ in range(writers)]

    async def append(self, writer: int) -> None:
        """Insert the writer's next row."""
        key, version = self.streams[writer]
        event = self.events[version % len(self.events)]
        await self.pool.execute(FLOOR_INSERT, key, version + 1, event.type, event.data.decode(),
                                event.metadata, event.hash)
        self.streams[writer] = (key, version + 1)


class BytesFloor(Floor):
    """The floor with the peer's row: the event's bytes as bytea, no JSON for Postgres to parse,
    no metadata (jsonb), hash or time; what the eventsourcing aggregate recorder inserts."""

    name = "floor-peer-row"

    async def prepare(self, writers: int) -> None:
        """One fresh stream per writer, and the table."""
        await self.pool.execute(BYTES_TABLE)
        self.streams = [(uuid.uuid4(), 0) for _ in range(writers)]

    async def append(self, writer: int) -> None:
        """Insert the writer's next row."""
        key, version = self.streams[writer]
        event = self.events[version % len(self.events)]
        await self.pool.execute(BYTES_INSERT, key, version + 1, event.type, event.data)
        self.streams[writer] = (key, version + 1)


class VersionedFloor(Floor):
    """The floor's INSERT plus the least version check: one narrow row updated where the version
    is the expected one, in the same statement (no hashes, summary or announcement)."""

    name = "floor-with-version-row"

    async def prepare(self, writers: int) -> None:
        """One fresh stream and version row per writer."""
        await super().prepare(writers)
        await self.pool.execute(VERSION_TABLE)
        await self.pool.executemany("INSERT INTO floor_versions VALUES ($1, 0)",
                                    [(key,) for key, _ in self.streams])

    async def append(self, writer: int) -> None:
        """Insert the writer's next row where its version row is at the version before."""
        key, version = self.streams[writer]
        event = self.events[version % len(self.events)]
        status = await self.pool.execute(VERSIONED_INSERT, key, version + 1, event.type,
                                         event.data.decode(), event.metadata, event.hash)
        if status != "INSERT 0 1":
            raise RuntimeError(f"the version row refused version {version + 1}: {status}")
        self.streams[writer] = (key, version + 1)


class BatchedFloor(Floor):
    """The floor's INSERT sent as ours is: through the store's batches (service.store.append),
    what piles up while a batch is in flight pipelined in one round trip and one transaction.
    Ours ÷ this is what our statement costs beside the floor's when both travel together."""

    name = "floor-batched"

    def __init__(self, pool: asyncpg.Pool, events: list[StoredEvent]) -> None:
        from service.store.append import Batches  # not in a child on the code --before names

        super().__init__(pool, events)
        self.batches = Batches(pool)

    async def append(self, writer: int) -> None:
        """Insert the writer's next row in the next batch."""
        key, version = self.streams[writer]
        event = self.events[version % len(self.events)]
        await self.batches.fetch(BATCHED_INSERT, [
            key, version + 1, event.type, event.data.decode(), event.metadata, event.hash])
        self.streams[writer] = (key, version + 1)


class Peer:
    """The eventsourcing library's Postgres recorder, through its documented API."""

    def __init__(self, url: str, writers: int, events: list[StoredEvent], kind: str) -> None:
        from eventsourcing.postgres import (
            PostgresAggregateRecorder,
            PostgresApplicationRecorder,
            PostgresDatastore,
        )

        parts = urlsplit(url)
        host = parse_qs(parts.query).get("host", [parts.hostname or "127.0.0.1"])[0]
        self.datastore = PostgresDatastore(
            dbname=parts.path.lstrip("/"), host=host, port=parts.port or 5432,
            user=parts.username or "postgres", password=parts.password or "",
            pool_size=writers)
        recorder = (PostgresApplicationRecorder if kind == "application"
                    else PostgresAggregateRecorder)
        self.recorder = recorder(self.datastore, events_table_name=f"es_{kind}_events")
        self.recorder.create_table()
        self.events = events
        self.streams = [(uuid.uuid4(), 0) for _ in range(writers)]

    def append(self, writer: int) -> None:
        """Insert the writer's next event at its next version (the recorder's version check)."""
        from eventsourcing.persistence import StoredEvent as EsEvent

        key, version = self.streams[writer]
        event = self.events[version % len(self.events)]
        self.recorder.insert_events([EsEvent(originator_id=key, originator_version=version + 1,
                                             topic=event.type, state=event.data)])
        self.streams[writer] = (key, version + 1)

    def close(self) -> None:
        """Close the recorder's pool."""
        self.datastore.close()


async def one_round(url: str, writers: int, seconds: float, warmup: float,
                    events: list[StoredEvent], summary: Summary) -> list[common.Measured]:
    """Every system once at one concurrency."""
    pool = await create_pool(url, min_size=writers, max_size=writers)
    try:
        ours, floor = Ours(pool, events, summary), Floor(pool, events)
        versioned, peer_row = VersionedFloor(pool, events), BytesFloor(pool, events)
        batched = BatchedFloor(pool, events)
        await ours.prepare(writers, events[0])
        await floor.prepare(writers)
        await versioned.prepare(writers)
        await peer_row.prepare(writers)
        await batched.prepare(writers)
        runs = [await common.timed_workers("floor", writers, floor.append, seconds, warmup),
                await common.timed_workers("hearthlog", writers, ours.append, seconds, warmup)]
        for other in (versioned, peer_row, batched):
            runs.append(await common.timed_workers(other.name, writers, other.append, seconds,
                                                   warmup))
        await ours.store.announcer.drain()
    finally:
        await pool.close()
    for kind in ("application", "aggregate"):
        peer = await asyncio.to_thread(Peer, url, writers, events, kind)
        try:
            runs.append(await asyncio.to_thread(
                common.timed_threads, f"eventsourcing-{kind}", writers, peer.append,
                seconds, warmup))
        finally:
            peer.close()
    return runs


async def postgres_cpu(pool: asyncpg.Pool) -> float:
    """CPU seconds the Postgres server has used so far: the postmaster, its live processes and
    those that exited (this run's backends are alive while it runs)."""
    postmaster = psutil.Process(psutil.Process(await pool.fetchval(
        "SELECT pg_backend_pid()")).ppid())
    used = postmaster.cpu_times()
    total = used.user + used.system + used.children_user + used.children_system
    for process in postmaster.children():
        with contextlib.suppress(psutil.NoSuchProcess):
            times = process.cpu_times()
            total += times.user + times.system
    return total


async def child(system: str, url: str, writers: int, seconds: float, warmup: float) -> None:
    """A run in a process of its own (half of a split run, or ``alone``): time ``system`` with
    these writers; print the CPU per append (this process's and Postgres's, µs, warm-up
    included) as JSON, then its Measured."""
    events, summary = sample()
    pool = await create_pool(url, min_size=writers, max_size=writers)
    appended = 0
    try:
        if system == "floor":
            floor = Floor(pool, events)
            await floor.prepare(writers)
            append = floor.append
        else:
            ours = Ours(pool, events, summary)
            await ours.prepare(writers, events[0])
            append = ours.append

        async def counted(writer: int) -> None:
            """One append, counted."""
            nonlocal appended
            await append(writer)
            appended += 1

        server, client = await postgres_cpu(pool), time.process_time()
        measured = await common.timed_workers(system, writers, counted, seconds, warmup)
        if system != "floor":
            await ours.store.announcer.drain()
        client, server = time.process_time() - client, await postgres_cpu(pool) - server
    finally:
        await pool.close()
    per = 1e6 / max(appended, 1)
    print(msgspec.json.encode({"client_us": round(client * per, 1),
                               "postgres_us": round(server * per, 1)}).decode(), flush=True)
    print(msgspec.json.encode(measured).decode(), flush=True)


async def alone(system: str, url: str, writers: int, seconds: float, warmup: float,
                tree: Path | None = None) -> tuple[common.Measured, dict[str, float]]:
    """``system`` in a process of its own with every writer, and its CPU per append; with
    ``tree``, the store is that commit's (this script, from a folder holding only it, runs
    first on the path, that commit's code after it)."""
    command = [sys.executable, "-m", "bench.appends", "--child", system, url, str(writers),
               "--seconds", str(seconds), "--warmup", str(warmup)]
    with tempfile.TemporaryDirectory(prefix="hearthlog-appends-") as folder:
        env, cwd = None, None
        if tree is not None:
            (Path(folder) / "bench").symlink_to(BENCH)
            env, cwd = {**os.environ, "PYTHONPATH": f"{folder}{os.pathsep}{tree}"}, folder
        child = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                     cwd=cwd, env=env)
        out, _ = await child.communicate()
    lines = out.splitlines()
    measured = msgspec.json.decode(lines[-1], type=common.Measured)
    name = system if tree is None else f"{system}-before"
    return msgspec.structs.replace(measured, name=name), msgspec.json.decode(lines[-2])


async def against(url: str, writers: int, seconds: float, warmup: float, rounds: int,
                  tree: Path, tree_url: str,
                  ) -> tuple[dict[str, list[common.Measured]], dict[str, Any]]:
    """The floor, ours and ours at the ``tree``'s commit (on ``tree_url``, the database its
    migrations made), each alone, in alternating order; their runs, and per round their CPU
    per append and their rates ÷ the floor's."""
    runs: dict[str, list[common.Measured]] = {}
    cpu: dict[str, list[dict[str, float]]] = {}
    order: list[tuple[str, Path | None, str]] = [("floor", None, url), ("hearthlog", None, url),
                                                 ("hearthlog", tree, tree_url)]
    for round_ in range(rounds):
        for system, code, where in order if round_ % 2 == 0 else reversed(order):
            measured, used = await alone(system, where, writers, seconds, warmup, code)
            runs.setdefault(measured.name, []).append(measured)
            cpu.setdefault(measured.name, []).append(used)
            print(f"  appends c={writers} {measured.name}: {measured.rate:.0f}/s "
                  f"p50 {measured.p50_ms} ms p99 {measured.p99_ms} ms, CPU µs per append "
                  f"{used}", flush=True)
    ratios = {name: [round(m.rate / f.rate, 3) for m, f in zip(found, runs["floor"], strict=True)]
              for name, found in runs.items() if name != "floor"}
    return runs, {"cpu_per_append": cpu, "rate_over_floor": ratios}


async def split(system: str, url: str, writers: int, seconds: float,
                warmup: float) -> common.Measured:
    """``system`` with its writers split over two processes run together; their rates added,
    the slower process's latencies kept."""
    command = [sys.executable, "-m", "bench.appends", "--child", system, url, str(writers // 2),
               "--seconds", str(seconds), "--warmup", str(warmup)]
    children = [await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
                for _ in range(2)]
    outputs = await asyncio.gather(*(c.communicate() for c in children))
    halves = [msgspec.json.decode(out.splitlines()[-1], type=common.Measured)  # CPU unused
              for out, _ in outputs]
    return common.Measured(
        name=f"{system}-two-processes", concurrency=writers,
        operations=sum(h.operations for h in halves), seconds=halves[0].seconds,
        rate=round(sum(h.rate for h in halves), 1), p50_ms=max(h.p50_ms for h in halves),
        p99_ms=max(h.p99_ms for h in halves), errors=sum(h.errors for h in halves))


async def run(admin_url: str, seconds: float, rounds: int, warmup: float,
              concurrency: tuple[int, ...] = CONCURRENCY, before: Path | None = None,
              ) -> dict[str, Any]:
    """Every concurrency, every system, in interleaved rounds; the median round of each."""
    url = await common.migrated_database(admin_url, "bench_appends")
    events, summary = sample()
    results = []
    try:
        if before is not None:  # the code before on the schema before
            before_url = await create_database(admin_url, "bench_appends_before")
            await apply_migrations(before_url, before / "migrations")
        for writers in concurrency:
            if before is not None:
                runs, figures = await against(url, writers, seconds, warmup, rounds, before,
                                              before_url)
                results.append({"concurrency": writers, "runs": runs, **figures})
                continue
            runs = {}
            for _ in range(rounds):
                measured_now = await one_round(url, writers, seconds, warmup, events, summary)
                if writers > 1:
                    measured_now += [await split(system, url, writers, seconds, warmup)
                                     for system in ("floor", "hearthlog")]
                for measured in measured_now:
                    runs.setdefault(measured.name, []).append(measured)
                    print(f"  appends c={writers} {measured.name}: {measured.rate:.0f}/s "
                          f"p50 {measured.p50_ms} ms p99 {measured.p99_ms} ms", flush=True)
            results.append({"concurrency": writers, "runs": runs})
    finally:
        await drop_database(admin_url, "bench_appends")
        if before is not None:
            await drop_database(admin_url, "bench_appends_before")
    return {"benchmark": "appends", "seconds": seconds, "rounds": rounds,
            "load_average": common.load_average(),
            "event_bytes": round(sum(len(e.data) for e in events) / len(events)),
            "results": results}


def main() -> None:
    """Run the benchmark on a throwaway Postgres and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", default=",".join(map(str, CONCURRENCY)))
    parser.add_argument("--before", metavar="COMMIT",
                        help="the floor, ours and ours at COMMIT, each in its own process")
    parser.add_argument("--save", help="bench/results/<SAVE>.json (default appends, or "
                        "appends-vs-<COMMIT> with --before, which bench/report.py does not read)")
    parser.add_argument("--child", nargs=3, metavar=("SYSTEM", "URL", "WRITERS"),
                        help=argparse.SUPPRESS)  # one half of a split run (``split``)
    args = parser.parse_args()
    if args.child:
        system, url, writers = args.child
        asyncio.run(child(system, url, int(writers), args.seconds, args.warmup))
        return
    concurrency = tuple(int(n) for n in args.concurrency.split(","))

    def work() -> dict[str, Any]:
        """The whole benchmark on a throwaway Postgres."""
        with contextlib.ExitStack() as stack:
            admin_url = stack.enter_context(common.postgres())
            tree = stack.enter_context(before_tree(args.before)) if args.before else None
            return asyncio.run(run(admin_url, args.seconds, args.rounds, args.warmup,
                                   concurrency, tree))

    save = args.save or (f"appends-vs-{args.before}" if args.before else "appends")
    print(common.run_and_save(save, work))


if __name__ == "__main__":
    main()
