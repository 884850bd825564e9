"""Benchmark 2: the whole command path over HTTP, beside a bare endpoint on the same server.

N matches (2 seats each) are played at once by client bots through a real server process, each
seat following its match stream as a real client does: on its turn a seat sends one of its
legal actions with a command_id (POST), taken from its own last answer (a command's answer
carries the seat's next legal actions) or, after the other seat's move, from its stream, so a
move is one request ("hearthlog-commands"). The old client, which asked for its legal actions
(GET) before every POST and followed no stream, is kept as a second line
("two-request-commands"; its requests per second count both). A finished match is replaced by
a new one. Figures: commands per second, the POST's p50/p99 latency and the CPU per operation
of the server processes, of Postgres and of the load generator (psutil, over the whole run
scaled to the window's operations): on a machine whose cores they share, what an operation costs
the machine is their sum. Beside them,
on the same kind of server process and the same Postgres, N loops POST the same body to a bare
litestar route doing one asyncpg INSERT, in a process whose collector is set as the service's
(until issue 33's fifth stop it kept CPython's default: bench/served.py); and N bare tables of
two seats, each seat following its table's stream, take turns POSTing to a bare move route
that does the same INSERT and sends one frame to each seat ("bare-with-streams": the floor of
a move that tells both seats, with no rules, views or store of ours in it). Each server kind
that is installed (uvicorn with asyncio and h11; uvicorn with uvloop and httptools; granian)
is measured in every round, one kind after the other with fresh server processes, so load on
the machine falls on every kind alike; within a kind the bare route and ours alternate. The
median round is kept. With --before COMMIT, that commit's service (from a worktree, on a
database of its own) is played by both clients too, each client on the two trees one after
the other, the first swapped from round to round ("before-hearthlog-commands",
"before-two-request-commands"). With
--postgres-work N, each round also plays N matches with each client on a fresh server and
reports the database's work per command (pg_stat_database deltas). Every run's window records
the machine's busy cores, its run queue (threads runnable) and the load generator's CPU
("windows"); with --stalls, also the event-loop stalls and collections of the load generator
and of this tree's servers, and how many of the slowest 1% of requests overlapped them
(bench/stalls.py). Run:

    PYTHONPATH=. python -m bench.http [--seconds 5] [--rounds 2] [--servers granian,uvicorn]
        [--postgres-work 32] [--before COMMIT] [--stalls]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import psutil

from bench import common, stalls
from bench.fanout import before_tree
from bench.wire import Stream, Wire
from service.cli.routing import free_port
from service.store.provisioning import create_database, drop_database
from tests.servers import ONE_ADDRESS

MATCHES = (16, 64)
STARTUP_SECONDS = 60
COMMAND = {"type": "play", "card": "lamp_warden", "target": 1, "guess": "gale"}


def server_command(kind: str, target: str, port: int, workers: int = 1) -> list[str]:
    """The command line running ``target`` (a factory) under one kind of server, in
    ``workers`` processes."""
    where = ["--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    if kind == "granian":
        return [sys.executable, "-m", "granian", "--interface", "asgi", "--factory",
                "--log-level", "warning", *where, target]
    loop = ["--loop", "uvloop", "--http", "httptools"] if kind == "uvicorn-uvloop" else [
        "--loop", "asyncio", "--http", "h11"]
    return [sys.executable, "-m", "uvicorn", "--factory", target, "--log-level", "warning",
            "--no-access-log", *loop, *where]


def installed_servers() -> list[str]:
    """The server kinds this environment can run."""
    kinds = ["uvicorn"]
    if importlib.util.find_spec("uvloop") and importlib.util.find_spec("httptools"):
        kinds.append("uvicorn-uvloop")
    if importlib.util.find_spec("granian"):
        kinds.append("granian")
    return kinds


class Server:
    """A server process on loopback, stopped by ``stop``."""

    def __init__(self, kind: str, target: str, database_url: str, workers: int = 1,
                 tree: Path | None = None, watched: Path | None = None) -> None:
        self.port = free_port()
        # Every client here is 127.0.0.1: the per-client limits (docs/limits.md) are raised.
        env = {**os.environ, **ONE_ADDRESS, "HEARTHLOG_BENCH_DATABASE_URL": database_url}
        self.watched = watched  # its workers' stalls go there (bench/stalls.py), if given
        if watched is not None:
            env[stalls.ENV] = str(watched)
        if tree is not None:  # another commit's code (bench.fanout.before_tree)
            env["PYTHONPATH"] = str(tree)
        self.process = subprocess.Popen(server_command(kind, target, self.port, workers), env=env,
                                        cwd=tree, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)

    async def ready(self, path: str) -> None:
        """Wait until ``path`` answers below 500."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            wire = Wire(self.port)
            try:
                if (await wire.request("GET", path))[0] < 500:
                    return
            except OSError:
                await asyncio.sleep(0.2)
            finally:
                await wire.close()
        raise RuntimeError("the server did not answer in time")

    def cpu_seconds(self) -> float:
        """CPU the server's processes (granian's and its workers) have used so far."""
        found = 0.0
        parent = psutil.Process(self.process.pid)
        for process in (parent, *parent.children(recursive=True)):
            with contextlib.suppress(psutil.NoSuchProcess):
                times = process.cpu_times()
                found += times.user + times.system
        return found

    def stop(self) -> None:
        """Terminate, then kill if it lingers."""
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Window:
    """The measured window of one run and what was timed in it."""

    def __init__(self, seconds: float, warmup: float) -> None:
        self.start = time.perf_counter() + warmup
        self.stop = self.start + seconds
        self.commands: list[float] = []
        self.began: list[float] = []  # when each of ``commands`` began
        self.reads: list[float] = []
        self.errors = 0

    def open(self) -> bool:
        """Whether the run goes on."""
        return time.perf_counter() < self.stop

    def note(self, into: list[float], began: float) -> None:
        """Keep one latency if its request began inside the window."""
        if self.start <= began < self.stop:
            into.append(time.perf_counter() - began)
            if into is self.commands:
                self.began.append(began)


def runnable() -> int:
    """Threads runnable on the machine now (procs_running in /proc/stat; 0 where there is
    none)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/stat").read_text().splitlines():
            if line.startswith("procs_running"):
                return int(line.split()[1])
    return 0


class Watching:
    """What each run's window held: the machine's busy cores and run queue, the load
    generator's CPU; with ``deep`` (``--stalls``), also the load generator's own stall watch
    and each served process's, from a folder of its own (bench/stalls.py)."""

    def __init__(self, deep: bool) -> None:
        self.deep = deep
        self.client = stalls.Watch()
        self.root = Path(tempfile.mkdtemp(prefix="hearthlog-stalls-")) if deep else None
        self.found: list[dict[str, Any]] = []
        self._folders = 0
        self.cpu: list[tuple[float, float, float]] = []  # when, the machine's busy CPU, ours
        self.runnable: list[tuple[float, int]] = []  # when, threads runnable on the machine

    async def sample_cpu(self) -> None:
        """Every quarter second: the machine's busy CPU seconds and this process's, so a run
        shows how many cores were busy and how many of them the load generator took, and how
        many threads were runnable on the machine (its run queue, /proc/stat)."""
        own = psutil.Process()
        while True:
            every = psutil.cpu_times()
            busy = sum(every) - every.idle - getattr(every, "iowait", 0.0)
            times = own.cpu_times()
            self.cpu.append((time.perf_counter(), busy, times.user + times.system))
            self.runnable.append((time.perf_counter(), runnable()))
            await asyncio.sleep(0.25)

    def cores(self, start: float, stop: float) -> dict[str, float]:
        """The machine's busy cores and the load generator's over [start, stop)."""
        inside = [s for s in self.cpu if start <= s[0] <= stop + 0.25]
        if len(inside) < 2:
            return {}
        (t0, busy0, own0), (t1, busy1, own1) = inside[0], inside[-1]
        queue = [n for at, n in self.runnable if start <= at <= stop]
        return {"machine_busy_cores": round((busy1 - busy0) / (t1 - t0), 2),
                "client_cores": round((own1 - own0) / (t1 - t0), 2),
                "runnable_mean": round(sum(queue) / max(1, len(queue)), 1)}

    def folder(self) -> Path | None:
        """A fresh folder for one server's workers (None: stalls are not watched)."""
        if self.root is None:
            return None
        self._folders += 1
        path = self.root / str(self._folders)
        path.mkdir()
        return path

    async def note(self, server: Server, name: str, n: int, window: Window) -> None:
        """The machine in ``window``; with stalls, the client's and the server's stalls and
        collections in it, and how many of the slowest 1% of its requests overlapped each."""
        if not self.deep:
            self.found.append({"name": name, "matches": n,
                               **self.cores(window.start, window.stop)})
            print(f"    machine {self.found[-1]}", flush=True)
            return
        await asyncio.sleep(0.6)  # the server writes its events every 0.25 s
        own = self.client
        theirs = stalls.read_events(server.watched) if server.watched else ([], [])
        spans = {"client_stall": stalls.stall_spans(own.stalls),
                 "client_gc2": stalls.collection_spans(own.collections, 2),
                 "server_stall": stalls.stall_spans(theirs[0]),
                 "server_gc2": stalls.collection_spans(theirs[1], 2)}
        found = {"name": name, "matches": n,
                 "client": stalls.summary(own.stalls, own.collections, window.start,
                                          window.stop),
                 "server": stalls.summary(*theirs, window.start, window.stop),
                 **self.cores(window.start, window.stop),
                 "p99_overlapping": {kind: stalls.overlapping(window.began, window.commands,
                                                              0.99, found)
                                     for kind, found in spans.items()}}
        self.found.append(found)
        print(f"    stalls {name} n={n}: {found}", flush=True)


class Table:
    """One 2-seat match and its two client bots, each seat on its own connection; with
    ``follow``, each seat also follows its match stream, as a real client does."""

    def __init__(self, port: int, seed: int, follow: bool = False) -> None:
        self.port, self.rng, self.sent, self.follow = port, random.Random(seed), 0, follow
        self.host = Wire(port)
        self.seats: list[Wire] = []
        self.streams: list[Stream] = []
        self.match_id, self.to_act, self.version = "", 0, 0
        self.offered: list[dict[str, Any]] = []  # the mover's actions from its own answer

    async def open(self) -> None:
        """Create, seat and start a new match."""
        await self.close()
        status, created = await self.host.request("POST", "/matches",
                                                  {"game": "wick-and-ember", "seats": 2})
        if status != 201:
            raise RuntimeError(f"a match was not created: {status} {created}")
        self.match_id = created["match_id"]
        for name in ("Ash", "Bryn"):
            _, joined = await self.host.request("POST", f"/matches/{self.match_id}/seats",
                                                {"name": name})
            self.seats.append(Wire(self.port, joined["token"]))
            if self.follow:
                self.streams.append(Stream(self.port, f"/matches/{self.match_id}/stream",
                                           joined["token"]))
                self.streams[-1].start()
        starter = Wire(self.port, created["host_token"])
        await starter.request("POST", f"/matches/{self.match_id}/start")
        await starter.close()
        _, view = await self.seats[0].request("GET", f"/matches/{self.match_id}/view")
        self.to_act, self.version, self.offered = view["to_act"][0], view["version"], []

    async def close(self) -> None:
        """Close the seats' connections and streams."""
        for seat in self.seats:
            await seat.close()
        for stream in self.streams:
            await stream.stop()
        self.seats, self.streams = [], []

    async def _actions(self, window: Window) -> list[dict[str, Any]]:
        """The legal actions of the seat to act: from its own last answer, else from its
        stream once it reaches the current version, else (the old client) from a GET."""
        if self.offered:
            return self.offered
        if self.follow:
            stream = self.streams[self.to_act]
            while stream.latest is None or stream.latest["version"] < self.version:
                stream.changed.clear()
                await stream.changed.wait()
            return list(stream.latest["actions"])
        began = time.perf_counter()
        _, legal = await self.seats[self.to_act].request(
            "GET", f"/matches/{self.match_id}/legal-actions")
        window.note(window.reads, began)
        return list(legal["actions"])

    async def turn(self, window: Window) -> None:
        """The seat to act sends one of its legal actions."""
        seat, path = self.seats[self.to_act], f"/matches/{self.match_id}"
        action = self.rng.choice(await self._actions(window))
        self.sent += 1
        body = {"command": action["command"], "command_id": f"c{self.sent}"}
        began = time.perf_counter()
        status, answer = await seat.request("POST", f"{path}/commands", body)
        window.note(window.commands, began)
        if status != 200:
            window.errors += 1
            raise RuntimeError(f"command refused: {status} {answer}")
        if answer["view"]["status"] == "finished":
            await self.open()
            return
        self.version, self.to_act = answer["version"], answer["view"]["to_act"][0]
        mine = self.to_act == answer["view"]["seat"] and self.follow
        self.offered = answer.get("actions", []) if mine else []


Examine = Callable[[Window], Awaitable[None]] | None  # looks at a run's window after it


async def play_tables(tables: list[Table], seconds: float, warmup: float,
                      examine: Examine = None) -> list[common.Measured]:
    """Every table's bots play until the window closes."""
    window = Window(seconds, warmup)

    async def bots(table: Table) -> None:
        """One match's turns, one after another."""
        while window.open():
            await table.turn(window)

    await asyncio.gather(*(bots(table) for table in tables))
    if examine is not None:
        await examine(window)
    n, name = len(tables), "hearthlog" if tables[0].follow else "two-request"
    return [common.summarise(f"{name}-commands", n, window.commands, seconds, window.errors),
            common.summarise(f"{name}-requests", n, window.commands + window.reads, seconds)]


async def bare_loops(port: int, n: int, seconds: float, warmup: float,
                     examine: Examine = None) -> common.Measured:
    """N loops POSTing a command's body to the bare route."""
    window = Window(seconds, warmup)

    async def loop(index: int) -> None:
        """One connection's requests, one after another."""
        wire = Wire(port)
        while window.open():
            began = time.perf_counter()
            status, _ = await wire.request("POST", "/bare", {"command": COMMAND,
                                                             "command_id": f"{index}"})
            window.note(window.commands, began)
            window.errors += status != 200
        await wire.close()

    await asyncio.gather(*(loop(i) for i in range(n)))
    if examine is not None:
        await examine(window)
    return common.summarise("bare", n, window.commands, seconds, window.errors)


async def bare_streams_loops(port: int, n: int, seconds: float, warmup: float,
                             examine: Examine = None) -> common.Measured:
    """N bare tables of two seats, each seat following its table's stream; the seat to move
    waits until its stream shows the last move (as the one-request client waits for its
    stream), then POSTs to the bare move route: the bare INSERT and a frame to each seat. The
    floor of a move that tells both seats, with no rules, views or store of ours in it."""
    window = Window(seconds, warmup)
    base = random.randrange(1 << 30)  # the server's tables of an earlier run are not reused

    async def table(index: int) -> None:
        """One table's moves, the seats taking turns."""
        path = f"/bare/{base + index}"
        seats = [Wire(port), Wire(port)]
        streams = [Stream(port, f"{path}/stream", "none"), Stream(port, f"{path}/stream", "none")]
        for stream in streams:
            stream.start()
        try:
            version, turn = 0, 0
            while window.open():
                stream = streams[turn]
                while stream.latest is None or stream.latest["version"] < version:
                    stream.changed.clear()
                    await stream.changed.wait()
                began = time.perf_counter()
                status, answer = await seats[turn].request(
                    "POST", f"{path}/move", {"command": COMMAND, "command_id": f"{version}"})
                window.note(window.commands, began)
                if status != 200:
                    window.errors += 1
                    raise RuntimeError(f"a bare move was refused: {status} {answer}")
                version, turn = answer["version"], 1 - turn
        finally:
            for stream in streams:
                await stream.stop()
            for seat in seats:
                await seat.close()

    await asyncio.gather(*(table(i) for i in range(n)))
    if examine is not None:
        await examine(window)
    return common.summarise("bare-with-streams", n, window.commands, seconds, window.errors)


async def with_cpu(server: Server | list[Server], run: Any, seconds: float, warmup: float,
                   postgres: psutil.Process | None = None) -> Any:
    """What ``run`` measured (a Measured or a list of them), each with the CPU per operation of
    the server (or of every process of a list: servers and a proxy), of Postgres (``postgres``:
    its postmaster, when given) and of the load generator (this process): the CPU over the whole
    run (warm-up included) over the operations of the window scaled to the whole run, so a
    steady rate is assumed. The three add up to what one operation costs the machine, whose
    cores they share."""
    client, servers = psutil.Process(), server if isinstance(server, list) else [server]

    def used() -> tuple[float, float, float]:
        """The servers', Postgres's and this process's CPU seconds so far."""
        own = client.cpu_times()
        return (sum(each.cpu_seconds() for each in servers),
                common.tree_cpu(postgres, reaped=True) if postgres is not None else 0.0,
                own.user + own.system)

    before = used()
    measured = await run
    spent = [after - was for after, was in zip(used(), before, strict=True)]
    each = measured if isinstance(measured, list) else [measured]

    def per(seconds_used: float, m: common.Measured) -> float:
        """CPU µs per operation of ``m``, its window scaled to the whole run."""
        return round(1e6 * seconds_used / max(1.0, m.operations * (seconds + warmup) / seconds), 1)

    scaled = [msgspec.structs.replace(m, server_cpu_us=per(spent[0], m),
                                      postgres_cpu_us=per(spent[1], m),
                                      client_cpu_us=per(spent[2], m)) for m in each]
    return scaled if isinstance(measured, list) else scaled[0]


async def one_round(kind: str, url: str, seconds: float, warmup: float,
                    matches: tuple[int, ...], before: tuple[Path, str] | None = None,
                    flip: bool = False, watching: Watching | None = None,
                    postgres: psutil.Process | None = None,
                    ) -> list[tuple[int, common.Measured]]:
    """One round under one server kind: fresh server processes, both apps at every N (and,
    with ``before``, that tree's service on its own database, played by both clients, each
    client's two trees one after the other, the tree that goes first swapped by ``flip``).
    With ``watching``, every run's window is looked at too (stalls: this tree's servers only);
    with ``postgres`` (its postmaster), Postgres's CPU per operation is measured too."""
    def watched() -> Path | None:
        """A folder for a server's stalls, when they are watched."""
        return None if watching is None else watching.folder()

    def examine(server: Server, name: str, n: int) -> Examine:
        """What looks at one run's window (its machine; its stalls too, when watched)."""
        return None if watching is None else functools.partial(watching.note, server, name, n)

    ours = Server(kind, "bench.served:hearthlog", url, watched=watched())
    bare = Server(kind, "bench.served:bare", url, watched=watched())
    old = None if before is None else Server(kind, "bench.served:hearthlog", before[1],
                                             tree=before[0])
    try:
        await ours.ready("/health")
        await bare.ready("/")
        if old is not None:
            await old.ready("/health")
        measured = []
        for n in matches:
            results = [await with_cpu(bare, bare_loops(bare.port, n, seconds, warmup,
                                                       examine(bare, "bare", n)),
                                      seconds, warmup, postgres),
                       await with_cpu(bare, bare_streams_loops(
                           bare.port, n, seconds, warmup, examine(bare, "bare-with-streams", n)),
                                      seconds, warmup, postgres)]
            plays: list[tuple[Server, bool, str]] = []
            for follow in (True, False):  # one request a move; the two-request client
                trees = [(ours, follow, "")]
                if old is not None:
                    trees.append((old, follow, "before-"))
                plays += trees[::-1] if flip else trees
            for server, follow, prefix in plays:
                tables = [Table(server.port, seed, follow) for seed in range(n)]
                await asyncio.gather(*(table.open() for table in tables))
                name = prefix + ("hearthlog" if follow else "two-request")
                played = await with_cpu(server, play_tables(tables, seconds, warmup,
                                                            examine(server, name, n)),
                                        seconds, warmup, postgres)
                results += [msgspec.structs.replace(m, name=prefix + m.name) for m in played]
                await asyncio.gather(*(table.close() for table in tables))
            for m in results:
                measured.append((n, m))
                print(f"  http {kind} n={n} {m.name}: {m.rate:.0f}/s p50 {m.p50_ms} ms "
                      f"p99 {m.p99_ms} ms, CPU µs each: server {m.server_cpu_us:.0f}, "
                      f"Postgres {m.postgres_cpu_us:.0f}, load generator {m.client_cpu_us:.0f}",
                      flush=True)
        return measured
    finally:
        for server in (ours, bare, old):
            if server is not None:
                server.stop()


async def postgres_work(kind: str, url: str, n: int, seconds: float,
                        before: tuple[Path, str] | None = None) -> dict[str, Any]:
    """The database's work per command (pg_stat_database deltas: transactions, rows scanned,
    fetched, inserted, updated) of each client at N matches, each server fresh (with
    ``before``, that tree's too, played by the old client); the matches' openings (create, two
    seats, start, a view) are counted in, spread over their commands."""
    found: dict[str, Any] = {}
    plays: list[tuple[str, Path | None, str, bool]] = [
        ("hearthlog", None, url, True), ("two-request", None, url, False)]
    if before is not None:
        plays.append(("before-two-request", before[0], before[1], False))
    for name, tree, database, follow in plays:
        server = Server(kind, "bench.served:hearthlog", database, tree=tree)
        try:
            await server.ready("/health")
            tables = [Table(server.port, 1000 + seed, follow) for seed in range(n)]
            await asyncio.gather(*(table.open() for table in tables))
            before_counts = await common.database_counters(database)
            sent = sum(table.sent for table in tables)
            await play_tables(tables, seconds, 0.0)
            commands = sum(table.sent for table in tables) - sent
            after = await common.database_counters(database)
            await asyncio.gather(*(table.close() for table in tables))
        finally:
            server.stop()
        found[name] = {"commands": commands,
                       **common.per_operation(before_counts, after, commands)}
        print(f"  postgres work {kind} n={n} {name}: {found[name]}", flush=True)
    return found


async def run(admin_url: str, kinds: list[str], seconds: float, rounds: int,
              warmup: float, matches: tuple[int, ...] = MATCHES, postgres: int = 0,
              before: Path | None = None, watch: bool = False) -> dict[str, Any]:
    """Every server kind in every round (kind after kind within a round), on one database
    (and the ``before`` tree's service on one of its own); with ``watch``, the stalls of the
    load generator and of this tree's servers in every run (bench/stalls.py)."""
    watching = Watching(deep=watch)
    if watch:
        watching.client.start()
    sampling = asyncio.get_running_loop().create_task(watching.sample_cpu())
    url = await common.migrated_database(admin_url, "bench_http")
    postmaster = await common.postmaster(url)
    old = None
    if before is not None:  # its own server migrates it, as that commit knew the schema
        old = (before, await create_database(admin_url, "bench_http_before"))
    runs: dict[tuple[str, int], dict[str, list[common.Measured]]] = {}
    work: list[dict[str, Any]] = []
    try:
        for round_ in range(rounds):
            for kind in kinds:
                for n, m in await one_round(kind, url, seconds, warmup, matches, old,
                                            flip=bool(round_ % 2), watching=watching,
                                            postgres=postmaster):
                    runs.setdefault((kind, n), {}).setdefault(m.name, []).append(m)
                if postgres and not round_:  # counts, not timings: one round tells them
                    work.append(await postgres_work(kind, url, postgres, seconds, old))
    finally:
        await drop_database(admin_url, "bench_http")
        if old is not None:
            await drop_database(admin_url, "bench_http_before")
    levels = [{"server": kind, "matches": n, "runs": runs[kind, n]}
              for kind in kinds for n in matches]
    found = {"benchmark": "http", "seconds": seconds, "rounds": rounds, "levels": levels,
             "postgres_work_per_command": work, "load_average": common.load_average()}
    watching.client.stop()
    sampling.cancel()
    found["windows"] = watching.found  # each run's machine (and stalls, with --stalls)
    return found


def main() -> None:
    """Run the benchmark on a throwaway Postgres and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--servers", default=",".join(installed_servers()))
    parser.add_argument("--matches", default=",".join(map(str, MATCHES)))
    parser.add_argument("--postgres-work", type=int, default=0, metavar="N",
                        help="also measure the database's work per command at N matches")
    parser.add_argument("--before", metavar="COMMIT",
                        help="also serve this commit's code, played by both clients")
    parser.add_argument("--stalls", action="store_true",
                        help="watch the event loops of this process and of this tree's servers "
                             "for stalls and time their collections (bench/stalls.py)")
    args = parser.parse_args()
    matches = tuple(int(n) for n in args.matches.split(","))
    def work() -> dict[str, Any]:
        """The whole benchmark on a throwaway Postgres."""
        with contextlib.ExitStack() as stack:
            admin_url = stack.enter_context(common.postgres())
            tree = stack.enter_context(before_tree(args.before)) if args.before else None
            return asyncio.run(run(admin_url, args.servers.split(","), args.seconds,
                                   args.rounds, args.warmup, matches, args.postgres_work, tree,
                                   args.stalls))

    print(common.run_and_save("http", work))


if __name__ == "__main__":
    main()
