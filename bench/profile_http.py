"""Where a command's time goes: py-spy samples of one server worker under the HTTP benchmark.

One granian worker serves the service (bench/served.py) on a throwaway Postgres; N matches are
played by bench/http.py's one-request client (each seat following its stream) while py-spy
(the bench extra) samples the worker for --seconds. Printed and saved: the share of samples
whose innermost frame of ours or of a library lies in each area (the self time by area), and
the top functions by self time. Run (root, or ptrace allowed):

    PYTHONPATH=. python -m bench.profile_http [--matches 32] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import psutil

from bench import common
from bench.http import Server, Table, play_tables
from service.store.provisioning import drop_database

AREAS = (  # the first that a frame's file names wins
    ("domain and projections (the rules, the observers, the log)", ("domain/", "projections/")),
    ("the application (service/*.py: use cases, views, the cache, tokens)", ("service/matches",
     "service/views", "service/loading", "service/access", "service/auth",
     "service/clock", "service/schemas", "service/names", "hmac.py")),
    ("live fan-out (service/live: feeds, streams)", ("service/live/", "api/stream",
     "response/sse")),
    ("the store and asyncpg (statements, rows; its C protocol)", ("service/store/", "asyncpg")),
    ("the access log (service/logs.py, logging, its writer thread)", ("service/logs",
     "logging/", "concurrent/futures")),
    ("the front (service/http: limits, body reader, security headers)", ("service/http/",)),
    ("litestar (routing, decoding, responses)", ("litestar",)),
    ("msgspec (encoding, decoding)", ("msgspec",)),
    ("granian and the event loop (Rust side, asyncio)", ("granian", "asyncio", "selectors")),
)


def area(frame: str) -> str:
    """The area a frame (``function (file:line)``) belongs to."""
    for name, marks in AREAS:
        if any(mark in frame for mark in marks):
            return name
    return "other (the standard library)"


def summarise(raw: Path, top: int) -> dict[str, Any]:
    """Self time by area and by function, from py-spy's raw (collapsed) output."""
    areas: collections.Counter[str] = collections.Counter()
    functions: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        frames, samples = stack.split(";"), int(count)
        total += samples
        leaf = frames[-1]
        areas[next((area(f) for f in reversed(frames) if not area(f).startswith("other")),
                   area(leaf))] += samples
        functions[leaf] += samples
    share = {name: round(n / max(total, 1), 3) for name, n in areas.most_common()}
    return {"samples": total, "self_by_area": share,
            "top_functions": [(f, round(n / max(total, 1), 3))
                              for f, n in functions.most_common(top)]}


async def run(admin_url: str, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    """Serve, play and sample."""
    url = await common.migrated_database(admin_url, "bench_profile")
    server = Server("granian", "bench.served:hearthlog", url)
    try:
        await server.ready("/health")
        worker = psutil.Process(server.process.pid).children(recursive=True)[0].pid
        tables = [Table(server.port, seed, follow=True) for seed in range(args.matches)]
        await asyncio.gather(*(table.open() for table in tables))
        spy_path = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        spy = await asyncio.create_subprocess_exec(
            spy_path, "record", "--pid", str(worker), "--duration", str(int(args.seconds)),
            "--rate", "200", "--format", "raw", "--output", str(out),
            "--nonblocking", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        measured = await play_tables(tables, args.seconds, 0.0)
        await spy.wait()
        await asyncio.gather(*(table.close() for table in tables))
    finally:
        server.stop()
        await drop_database(admin_url, "bench_profile")
    return {"benchmark": "profile_http", "matches": args.matches, "seconds": args.seconds,
            "commands_per_s": measured[0].rate, "load_average": common.load_average(),
            **summarise(out, args.top)}


def main() -> None:
    """Run and save bench/results/profile_http.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--raw", help="keep py-spy's raw samples in this file")
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        """The run on a throwaway Postgres."""
        with common.postgres() as admin_url, tempfile.TemporaryDirectory() as folder:
            return asyncio.run(run(admin_url, args, Path(args.raw or Path(folder) / "raw.txt")))

    path = common.run_and_save("profile_http", work)
    print(path.read_text()[:4000])


if __name__ == "__main__":
    main()
