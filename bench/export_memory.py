"""Benchmark: the NDJSON export of many finished matches streams with the server's memory flat.

A throwaway embedded Postgres is filled with finished Wick & Ember matches: ``--distinct``
random matches are played in-process (bench.matches) and each is stored under several match
ids, with its events and hashes, by COPY (the export's work depends on the rows, not on how the
matches were chosen). A real `hearthlog serve` process then streams
``GET /exports/matches?format=ndjson`` for the oldest N matches (``finished_before``), while
this process samples the server's resident memory (psutil) every 20 ms and reads the answer
chunk by chunk, discarding it. The server's memory is the serving process's resident set plus
its children's (granian runs the app in a worker process; the database is given by URL, so no
Postgres process is among them). Reported per N: the server's RSS before, at its peak and after,
the bytes and matches streamed, and the time. Run:

    PYTHONPATH=. python -m bench.export_memory [--sizes 2000,20000] [--distinct 500]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import threading
import time
import uuid
from datetime import timedelta
from typing import Any

import httpx
import msgspec
import psutil

from bench import common
from bench.matches import EPOCH, Played, play, stored
from domain.games import GAMES
from service.store.provisioning import create_pool
from tests.replay.random_matches import copy_rows
from tests.servers import serving

GAME = GAMES["wick-and-ember"]
BATCH = 500


def distinct_matches(count: int) -> list[tuple[Played, list[Any]]]:
    """``count`` random finished matches at 2 to 6 seats, with their stored events."""
    out = []
    for index in range(count):
        played = play(GAME, index, 2 + index % 5, {"match_length": "short"})
        out.append((played, stored(played)))
    return out


def rows_for(number: int, played: Played, events: list[Any]) -> tuple[tuple, tuple, list[tuple]]:
    """Match number ``number``: a copy of ``played`` under its own id and finish time (rows of
    tests.replay.random_matches' MATCH_COLUMNS, HEAD_COLUMNS and EVENT_COLUMNS)."""
    match_id = uuid.UUID(int=number + 1, version=4)
    finished = EPOCH + timedelta(seconds=number)
    first = msgspec.json.decode(events[0].data)
    row = (match_id, GAME.id, GAME.rules_version, "finished", first["seats"], first["seats"],
           False, None, None, first["seed_commitment"], played.seed, played.summary,
           finished - timedelta(minutes=5), finished)
    head = (match_id, len(events), events[-1].hash, finished)
    copies = [(match_id, e.version, e.type, e.data.decode(), e.metadata, e.recorded_at, e.hash)
              for e in events]
    return row, head, copies


async def fill(url: str, total: int, pool_of: list[tuple[Played, list[Any]]]) -> None:
    """COPY ``total`` finished matches into the database, a batch at a time."""
    pool = await create_pool(url, min_size=1, max_size=1)
    try:
        async with pool.acquire() as conn:
            for start in range(0, total, BATCH):
                batch = [rows_for(n, *pool_of[n % len(pool_of)])
                         for n in range(start, min(total, start + BATCH))]
                await copy_rows(conn, [row for row, _, _ in batch], [head for _, head, _ in batch],
                                [e for _, _, es in batch for e in es])
            await conn.execute("ANALYZE")
    finally:
        await pool.close()


def resident(process: psutil.Process) -> int:
    """The resident set size of a process and every process under it, in bytes."""
    total = process.memory_info().rss
    for child in process.children(recursive=True):
        with contextlib.suppress(psutil.NoSuchProcess):
            total += child.memory_info().rss
    return total


class Sampler(threading.Thread):
    """Samples a server's resident set size (its children's included) every 20 ms until stopped."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.process, self.samples, self.running = psutil.Process(pid), [], True

    def run(self) -> None:
        """Sample until stopped."""
        while self.running:
            self.samples.append(resident(self.process))
            time.sleep(0.02)

    def stop(self) -> list[int]:
        """Stop sampling; the samples in bytes."""
        self.running = False
        self.join()
        return self.samples


def export(base: str, pid: int, count: int) -> dict[str, Any]:
    """Stream the oldest ``count`` matches as NDJSON, sampling the server's memory meanwhile."""
    rss = resident(psutil.Process(pid))
    before = (EPOCH + timedelta(seconds=count)).isoformat()
    sampler, lines, size = Sampler(pid), 0, 0
    sampler.start()
    began = time.perf_counter()
    with httpx.stream("GET", f"{base}/exports/matches", params={"finished_before": before},
                      timeout=600) as answer:
        answer.raise_for_status()
        for chunk in answer.iter_bytes():
            size += len(chunk)
            lines += chunk.count(b"\n")
    seconds = time.perf_counter() - began
    samples = sampler.stop()
    mib = 2**20
    return {"matches": lines, "bytes": size, "seconds": round(seconds, 2),
            "matches_per_second": round(lines / seconds, 1),
            "rss_before_mib": round(rss / mib, 1), "rss_peak_mib": round(max(samples) / mib, 1),
            "rss_after_mib": round(resident(psutil.Process(pid)) / mib, 1),
            "samples": len(samples)}


def run(sizes: list[int], distinct: int) -> dict[str, Any]:
    """Fill a database with the largest size, then export each size through a real server."""
    document: dict[str, Any] = {"benchmark": "export_memory", "machine": common.machine(),
                                "distinct_matches": distinct, "runs": []}
    with common.postgres() as admin:
        url = asyncio.run(common.migrated_database(admin, "export_memory"))
        began = time.perf_counter()
        asyncio.run(fill(url, max(sizes), distinct_matches(distinct)))
        print(f"  filled {max(sizes)} matches in {time.perf_counter() - began:.0f} s", flush=True)
        with serving(url) as server:
            export(server, server.process.pid, 50)  # warm-up
            for size in sizes:
                result = export(server, server.process.pid, size)
                print(f"  {size} matches: {result}", flush=True)
                document["runs"].append(result)
    return document


def main() -> None:
    """Run the benchmark and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,20000")
    parser.add_argument("--distinct", type=int, default=500)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(common.save("export_memory", run(sizes, args.distinct)))


if __name__ == "__main__":
    main()
