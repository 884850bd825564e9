"""What grows in a worker under followers: a tracemalloc diff over minutes (issue 33).

One granian worker serving the traced service (bench/traced.py) on a throwaway Postgres; M
matches played by the soak's paced bots (bench/soak_clients.py) and F stream followers (two per
match, moving to each new match); the worker writes a tracemalloc snapshot every --every
seconds. Printed: the worker's memory (PSS) over time with its slope, the allocation sites
that grew most from the first snapshot after the ramp to the last, and at each snapshot what
the worker's feeds and state cache held and how many feed objects were still in memory. Run:

    PYTHONPATH=. python -m bench.leak [--minutes 3] [--matches 200] [--followers 400]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import psutil

from bench import common
from bench.http import Server
from bench.soak import in_batches, raise_file_limit
from bench.soak_clients import Bot, Follower, Ledger
from service.store.provisioning import drop_database


def pss(pid: int) -> int:
    """The process's and its children's proportional set size, in bytes."""
    main = psutil.Process(pid)
    return sum(p.memory_full_info().pss for p in [main, *main.children(recursive=True)])


def growth(folder: Path, top: int) -> list[str]:
    """The allocation sites grown most from the first snapshot to the last."""
    snaps = sorted(folder.glob("snap-*.trace"))
    if len(snaps) < 2:
        return ["fewer than two snapshots"]
    first, last = (tracemalloc.Snapshot.load(str(s)) for s in (snaps[0], snaps[-1]))
    keep = [tracemalloc.Filter(False, tracemalloc.__file__)]
    diff = last.filter_traces(keep).compare_to(first.filter_traces(keep), "traceback")
    lines = [f"{len(snaps)} snapshots, {snaps[0].name} -> {snaps[-1].name}"]
    for stat in diff[:top]:
        lines.append(f"{stat.size_diff / 1024:+.0f} KiB, {stat.count_diff:+d} blocks:")
        lines += [f"    {frame}" for frame in stat.traceback.format()[-10:]]
    return lines


def alive(folder: Path) -> list[dict[str, int]]:
    """The counted objects alive at each snapshot (bench/traced.py), in order."""
    return [json.loads(path.read_text()) for path in sorted(folder.glob("count-*.json"))]


async def run(admin_url: str, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """Serve, ramp, play and follow for the minutes given; the memory samples and the diff."""
    url = await common.migrated_database(admin_url, "bench_leak")
    os.environ.update({"HEARTHLOG_TRACE_DIR": str(folder),
                       "HEARTHLOG_TRACE_SECONDS": str(args.every),
                       "HEARTHLOG_STREAMS": "100000"})
    server = Server("granian", "bench.traced:hearthlog", url)
    try:
        await server.ready("/health")
        ledger = Ledger()
        bots = [Bot(server.port, n, ledger, args.pace) for n in range(args.matches)]
        followers = [Follower(server.port) for _ in range(args.followers)]
        await in_batches([bot.open() for bot in bots])
        until = time.monotonic() + args.minutes * 60
        playing = [asyncio.create_task(bot.play(until)) for bot in bots]
        for n, follower in enumerate(followers):
            bots[n % len(bots)].followers.append(follower)
            follower.move(bots[n % len(bots)].match_id)
        began, samples = time.monotonic(), []
        while time.monotonic() < until:
            await asyncio.sleep(10)
            samples.append((time.monotonic() - began, pss(server.process.pid)))
            print(f"  {samples[-1][0]:.0f} s: {samples[-1][1] / 2**20:.1f} MiB", flush=True)
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        for follower in followers:
            await follower.close()
    finally:
        server.stop()
        await drop_database(admin_url, "bench_leak")
    return {"benchmark": "leak", "minutes": args.minutes, "matches": args.matches,
            "followers": args.followers, "pace": args.pace, "commands": len(ledger.acks),
            "failures": len(ledger.failures),
            "memory_mib": [(round(t), round(m / 2**20, 1)) for t, m in samples],
            "slope": common.memory_slope(samples),
            "finished": ledger.finished, "alive": alive(folder),
            "growth": growth(folder, args.top)}


def main() -> None:
    """Run it and save the figures (bench/results/leak.json), the diff printed too."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--followers", type=int, default=400)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--every", type=float, default=30.0)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    raise_file_limit()

    def work() -> dict[str, Any]:
        """The whole run on a throwaway Postgres."""
        with common.postgres() as admin_url, tempfile.TemporaryDirectory() as folder:
            found = asyncio.run(run(admin_url, args, Path(folder)))
        print("\n".join(found["growth"]))
        print(f"{found['finished']} matches finished and replaced; alive at each snapshot:")
        print("\n".join(f"  {n}: {counted}" for n, counted in enumerate(found["alive"])))
        return found

    print(common.run_and_save("leak", work))


if __name__ == "__main__":
    main()
