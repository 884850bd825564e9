"""Where a command's time goes: py-spy samples of one server worker under the HTTP benchmark.

One granian worker serves the service (bench/served.py) on a throwaway Postgres; N matches are
played by bench/http.py's one-request client (each seat following its stream) while py-spy
(the bench extra) samples the worker for --seconds. Printed and saved: the share of samples
whose innermost frame of ours or of a library lies in each area (the self time by area), and
the top functions by self time. Run (root, or ptrace allowed):

    PYTHONPATH=. python -m bench.profile_http [--matches 32] [--seconds 20] [--native]

By default py-spy samples every thread at 200 Hz without pausing the worker (``--nonblocking``):
it can read a stack while it changes, and a call into C is credited to the Python frame that
made it. ``--native`` pauses the worker for each sample at 25 Hz (at 200 Hz the pauses cut the
worker to about 10 commands/s) and unwinds the native frames too, and the summary keeps only
the thread that runs the application (the one whose samples pass through litestar); each
native call is then counted to the Python frame that made it, and the top native leaves are
listed apart, so a system call shows as one. A sample is a moment of wall-clock time, not CPU:
a thread preempted inside a system call is counted there.
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


def app_thread(stacks: list[tuple[list[str], int]]) -> str:
    """The thread (the first frame of a ``--threads`` stack) whose samples most often pass
    through litestar: the one running the application's event loop."""
    through: collections.Counter[str] = collections.Counter()
    for frames, samples in stacks:
        if any("litestar/" in frame for frame in frames):
            through[frames[0]] += samples
    return through.most_common(1)[0][0] if through else ""


def is_python(frame: str) -> bool:
    """Whether a frame of a native stack is a Python function's (``name (file.py:line)``)."""
    return ".py:" in frame or "(<frozen" in frame


def summarise(raw: Path, top: int, native: bool = False) -> dict[str, Any]:
    """Self time by area and by function, from py-spy's raw (collapsed) output; ``native``: of
    the application's thread only, each sample counted to its innermost Python frame, and the
    innermost native calls listed apart."""
    stacks = []
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack:
            stacks.append((stack.split(";"), int(count)))
    thread = app_thread(stacks) if native else None
    areas: collections.Counter[str] = collections.Counter()
    functions: collections.Counter[str] = collections.Counter()
    leaves: collections.Counter[str] = collections.Counter()
    total = 0
    for frames, samples in stacks:
        if thread is not None and frames[0] != thread:
            continue
        total += samples
        python = [f for f in frames if is_python(f)] if native else frames
        leaf = python[-1] if python else frames[-1]
        if native and not is_python(frames[-1]):
            leaves[f"{frames[-1].split(' (')[0]} under {leaf}"] += samples
        areas[next((area(f) for f in reversed(python) if not area(f).startswith("other")),
                   area(leaf))] += samples
        functions[leaf] += samples
    share = {name: round(n / max(total, 1), 3) for name, n in areas.most_common()}
    found = {"samples": total, "self_by_area": share,
             "top_functions": [(f, round(n / max(total, 1), 3))
                               for f, n in functions.most_common(top)]}
    if native:
        found["top_native_leaves"] = [(f, round(n / max(total, 1), 3))
                                      for f, n in leaves.most_common(top)]
    return found


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
            "--format", "raw", "--output", str(out),
            *(("--rate", "25", "--native", "--threads") if args.native
              else ("--rate", "200", "--nonblocking")),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        measured = await play_tables(tables, args.seconds, 0.0)
        await spy.wait()
        await asyncio.gather(*(table.close() for table in tables))
    finally:
        server.stop()
        await drop_database(admin_url, "bench_profile")
    return {"benchmark": "profile_http", "matches": args.matches, "seconds": args.seconds,
            "commands_per_s": measured[0].rate, "load_average": common.load_average(),
            "sampling": "paused, 25 Hz, native frames, the application's thread" if args.native
            else "not paused, 200 Hz, every thread", **summarise(out, args.top, args.native)}


def main() -> None:
    """Run and save bench/results/profile_http.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--raw", help="keep py-spy's raw samples in this file")
    parser.add_argument("--native", action="store_true", help="pause for each sample (25 Hz), "
                        "unwind native frames, summarise the application's thread")
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        """The run on a throwaway Postgres."""
        with common.postgres() as admin_url, tempfile.TemporaryDirectory() as folder:
            return asyncio.run(run(admin_url, args, Path(args.raw or Path(folder) / "raw.txt")))

    path = common.run_and_save("profile_http-native" if args.native else "profile_http", work)
    print(path.read_text()[:4000])


if __name__ == "__main__":
    main()
