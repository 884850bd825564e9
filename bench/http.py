"""Benchmark 2: the whole command path over HTTP, beside a bare endpoint on the same server.

N matches (2 seats each) are played at once by client bots through a real server process:
on its turn a seat asks for its legal actions (GET, as a client must: only its own view shows
its new card) and sends one of them with a command_id (POST); a finished match is replaced by
a new one. Figures: commands per second and the POST's p50/p99 latency (requests per second
counts both). Beside it, on the same kind of server process and the same Postgres, N loops
POST the same body to a bare litestar route doing one asyncpg INSERT. Each server kind that is
installed (uvicorn with asyncio and h11; uvicorn with uvloop and httptools; granian) is
measured in every round, one kind after the other with fresh server processes, so load on the
machine falls on every kind alike; within a kind the bare route and ours alternate. The median
round is kept. Run:

    PYTHONPATH=. python -m bench.http [--seconds 5] [--rounds 2] [--servers granian,uvicorn]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import random
import socket
import subprocess
import sys
import time
from typing import Any

from bench import common
from bench.wire import Wire
from service.store.provisioning import drop_database
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


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """A server process on loopback, stopped by ``stop``."""

    def __init__(self, kind: str, target: str, database_url: str, workers: int = 1) -> None:
        self.port = free_port()
        # Every client here is 127.0.0.1: the per-client limits (docs/limits.md) are raised.
        env = {**os.environ, **ONE_ADDRESS, "HEARTHLOG_BENCH_DATABASE_URL": database_url}
        self.process = subprocess.Popen(server_command(kind, target, self.port, workers), env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

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
        self.reads: list[float] = []
        self.errors = 0

    def open(self) -> bool:
        """Whether the run goes on."""
        return time.perf_counter() < self.stop

    def note(self, into: list[float], began: float) -> None:
        """Keep one latency if its request began inside the window."""
        if self.start <= began < self.stop:
            into.append(time.perf_counter() - began)


class Table:
    """One 2-seat match and its two client bots, each seat on its own connection."""

    def __init__(self, port: int, seed: int) -> None:
        self.port, self.rng, self.sent = port, random.Random(seed), 0
        self.host = Wire(port)
        self.seats: list[Wire] = []
        self.match_id, self.to_act = "", 0

    async def open(self) -> None:
        """Create, seat and start a new match."""
        for seat in self.seats:
            await seat.close()
        _, created = await self.host.request("POST", "/matches",
                                             {"game": "wick-and-ember", "seats": 2})
        self.match_id = created["match_id"]
        self.seats = []
        for name in ("Ash", "Bryn"):
            _, joined = await self.host.request("POST", f"/matches/{self.match_id}/seats",
                                                {"name": name})
            self.seats.append(Wire(self.port, joined["token"]))
        starter = Wire(self.port, created["host_token"])
        await starter.request("POST", f"/matches/{self.match_id}/start")
        await starter.close()
        _, view = await self.seats[0].request("GET", f"/matches/{self.match_id}/view")
        self.to_act = view["to_act"][0]

    async def turn(self, window: Window) -> None:
        """The seat to act reads its legal actions and sends one."""
        seat, path = self.seats[self.to_act], f"/matches/{self.match_id}"
        began = time.perf_counter()
        status, legal = await seat.request("GET", f"{path}/legal-actions")
        window.note(window.reads, began)
        self.sent += 1
        action = self.rng.choice(legal["actions"])
        body = {"command": action["command"], "command_id": f"c{self.sent}"}
        began = time.perf_counter()
        status, answer = await seat.request("POST", f"{path}/commands", body)
        window.note(window.commands, began)
        if status != 200:
            window.errors += 1
            raise RuntimeError(f"command refused: {status} {answer}")
        if answer["view"]["status"] == "finished":
            await self.open()
        else:
            self.to_act = answer["view"]["to_act"][0]


async def play_tables(tables: list[Table], seconds: float, warmup: float) -> list[common.Measured]:
    """Every table's bots play until the window closes."""
    window = Window(seconds, warmup)

    async def bots(table: Table) -> None:
        """One match's turns, one after another."""
        while window.open():
            await table.turn(window)

    await asyncio.gather(*(bots(table) for table in tables))
    n = len(tables)
    return [common.summarise("hearthlog-commands", n, window.commands, seconds, window.errors),
            common.summarise("hearthlog-requests", n, window.commands + window.reads, seconds)]


async def bare_loops(port: int, n: int, seconds: float, warmup: float) -> common.Measured:
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
    return common.summarise("bare", n, window.commands, seconds, window.errors)


async def one_round(kind: str, url: str, seconds: float, warmup: float,
                    matches: tuple[int, ...]) -> list[tuple[int, common.Measured]]:
    """One round under one server kind: fresh server processes, both apps at every N."""
    ours, bare = Server(kind, "bench.served:hearthlog", url), Server(kind, "bench.served:bare", url)
    try:
        await ours.ready("/health")
        await bare.ready("/")
        measured = []
        for n in matches:
            tables = [Table(ours.port, seed) for seed in range(n)]
            await asyncio.gather(*(table.open() for table in tables))
            for m in [await bare_loops(bare.port, n, seconds, warmup),
                      *await play_tables(tables, seconds, warmup)]:
                measured.append((n, m))
                print(f"  http {kind} n={n} {m.name}: {m.rate:.0f}/s p50 {m.p50_ms} ms "
                      f"p99 {m.p99_ms} ms", flush=True)
        return measured
    finally:
        ours.stop()
        bare.stop()


async def run(admin_url: str, kinds: list[str], seconds: float, rounds: int,
              warmup: float, matches: tuple[int, ...] = MATCHES) -> dict[str, Any]:
    """Every server kind in every round (kind after kind within a round), on one database."""
    url = await common.migrated_database(admin_url, "bench_http")
    runs: dict[tuple[str, int], dict[str, list[common.Measured]]] = {}
    try:
        for _ in range(rounds):
            for kind in kinds:
                for n, m in await one_round(kind, url, seconds, warmup, matches):
                    runs.setdefault((kind, n), {}).setdefault(m.name, []).append(m)
    finally:
        await drop_database(admin_url, "bench_http")
    levels = [{"server": kind, "matches": n, "runs": runs[kind, n]}
              for kind in kinds for n in matches]
    return {"benchmark": "http", "seconds": seconds, "rounds": rounds, "levels": levels}


def main() -> None:
    """Run the benchmark on a throwaway Postgres and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--servers", default=",".join(installed_servers()))
    parser.add_argument("--matches", default=",".join(map(str, MATCHES)))
    args = parser.parse_args()
    matches = tuple(int(n) for n in args.matches.split(","))
    def work() -> dict[str, Any]:
        """The whole benchmark on a throwaway Postgres."""
        with common.postgres() as admin_url:
            return asyncio.run(run(admin_url, args.servers.split(","), args.seconds,
                                   args.rounds, args.warmup, matches))

    print(common.run_and_save("http", work))


if __name__ == "__main__":
    main()
