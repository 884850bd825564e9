"""What every benchmark shares: the machine's description, a throwaway Postgres, timed loops.

Every figure a benchmark reports is a ratio against a baseline measured in the same run on the
same Postgres, because the machine is small and shared: an absolute rate means little on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import msgspec
import psutil

from service.store.migrations import apply_migrations
from service.store.provisioning import create_database, temporary_embedded

RESULTS = Path(__file__).resolve().parent / "results"


class Measured(msgspec.Struct, kw_only=True):
    """One timed run: how many operations, how fast, and their latency percentiles (ms)."""

    name: str
    concurrency: int
    operations: int
    seconds: float
    rate: float
    p50_ms: float
    p99_ms: float
    errors: int = 0
    server_cpu_us: float = 0.0  # the server processes' CPU per operation, when measured
    postgres_cpu_us: float = 0.0  # Postgres's (every backend's and its own), when measured
    client_cpu_us: float = 0.0  # the load generator's, when measured


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values fall (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summarise(name: str, concurrency: int, latencies: list[float], seconds: float,
              errors: int = 0) -> Measured:
    """A Measured from raw latencies (seconds) over a measured window."""
    return Measured(
        name=name,
        concurrency=concurrency,
        operations=len(latencies),
        seconds=round(seconds, 3),
        rate=round(len(latencies) / seconds, 1),
        p50_ms=round(percentile(latencies, 0.50) * 1000, 2),
        p99_ms=round(percentile(latencies, 0.99) * 1000, 2),
        errors=errors,
    )


async def timed_workers(name: str, concurrency: int, op: Callable[[int], Awaitable[Any]],
                        seconds: float, warmup: float) -> Measured:
    """Run ``concurrency`` loops of ``op(worker)``; time the operations after the warm-up."""
    start = time.perf_counter()
    measure_from, stop_at = start + warmup, start + warmup + seconds
    latencies: list[float] = []

    async def worker(index: int) -> None:
        """One loop, bounded by the deadline."""
        while (began := time.perf_counter()) < stop_at:
            await op(index)
            if began >= measure_from:
                latencies.append(time.perf_counter() - began)

    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    return summarise(name, concurrency, latencies, time.perf_counter() - measure_from)


def timed_threads(name: str, concurrency: int, op: Callable[[int], Any],
                  seconds: float, warmup: float) -> Measured:
    """The same as ``timed_workers`` for a blocking ``op``, one thread per loop."""
    start = time.perf_counter()
    measure_from, stop_at = start + warmup, start + warmup + seconds
    latencies: list[float] = []

    def worker(index: int) -> None:
        """One loop, bounded by the deadline."""
        while (began := time.perf_counter()) < stop_at:
            op(index)
            if began >= measure_from:
                latencies.append(time.perf_counter() - began)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return summarise(name, concurrency, latencies, time.perf_counter() - measure_from)


def median_run(runs: list[Measured]) -> Measured:
    """The run with the median rate (rounds are interleaved, so load spikes hit each system)."""
    ordered = sorted(runs, key=lambda run: run.rate)
    return ordered[(len(ordered) - 1) // 2]


def tree_cpu(process: psutil.Process, reaped: bool = False) -> float:
    """CPU seconds of a process and its live children (``reaped``: and its exited ones, as
    Postgres's backends of closed connections)."""
    used = process.cpu_times()
    total = used.user + used.system
    if reaped:
        total += used.children_user + used.children_system
    for child in process.children(recursive=True):
        with contextlib.suppress(psutil.NoSuchProcess):
            times = child.cpu_times()
            total += times.user + times.system
    return total


async def postmaster(url: str) -> psutil.Process:
    """The process of the Postgres server behind ``url`` (its backends' parent)."""
    conn = await asyncpg.connect(url)
    try:
        return psutil.Process(psutil.Process(await conn.fetchval("SELECT pg_backend_pid()")).ppid())
    finally:
        await conn.close()


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages."""
    return [round(x, 2) for x in os.getloadavg()]


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "memory_gib": round(memory, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average_at_start": load_average(),
    }


def postgres() -> contextlib.AbstractContextManager[str]:
    """An embedded Postgres (default, durable settings) in a temporary folder, deleted after."""
    return temporary_embedded("hearthlog-bench-pg-")


async def migrated_database(admin_url: str, name: str) -> str:
    """A new database with Hearthlog's schema; its URL."""
    url = await create_database(admin_url, name)
    await apply_migrations(url)
    return url


async def server_version(url: str) -> str:
    """The Postgres server's version string."""
    conn = await asyncpg.connect(url)
    try:
        return str(await conn.fetchval("SHOW server_version"))
    finally:
        await conn.close()


def save(name: str, document: dict[str, Any]) -> Path:
    """Write one benchmark's results to bench/results/<name>.json, with the load at the end."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    document = {**document, "load_average_at_end": load_average()}
    path.write_text(json.dumps(msgspec.to_builtins(document), indent=2) + "\n")
    return path


def run_and_save(name: str, work: Callable[[], dict[str, Any]]) -> Path:
    """Describe the machine, run a benchmark, save its document with that description."""
    started = machine()
    return save(name, {**work(), "machine": started})


ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def tree_at(commit: str | None) -> Iterator[Path]:
    """The code at ``commit`` in a temporary git worktree, removed after (None: this working
    tree)."""
    if commit is None:
        yield ROOT
        return
    with tempfile.TemporaryDirectory(prefix="hearthlog-bench-tree-") as folder:
        tree = Path(folder) / "tree"
        git = ["git", "-C", str(ROOT)]
        subprocess.run([*git, "worktree", "add", "--detach", str(tree), commit], check=True,
                       capture_output=True)
        try:
            yield tree
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(tree)], check=False)


def output_of(tree: Path, arguments: list[str], timeout: float | None = None) -> str:
    """The standard output of a Python process given ``arguments``, run on ``tree``'s code (its
    folder, and it alone on the path)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, *arguments], cwd=tree, env=env, capture_output=True,
                          text=True, check=True, timeout=timeout)
    return done.stdout


def measured_by(tree: Path, script: str, arguments: list[str], timeout: float) -> dict[str, Any]:
    """A benchmark ``script`` run with ``--measure`` on ``tree``'s code: the JSON of its last
    line, which names the code it measured (``code``), checked to be ``tree``'s."""
    out = output_of(tree, ["-P", script, "--measure", *arguments], timeout)
    result: dict[str, Any] = json.loads(out.splitlines()[-1])
    if not result["code"].startswith(str(tree)):
        raise RuntimeError(f"measured {result['code']}, not the code of {tree}")
    return result


def alternate(trees: dict[str, Path], rounds: int,
              measure: Callable[[Path, int], dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """``measure(tree, round)`` of the trees named ``before`` and ``after`` in every round, the
    one that goes first swapped from round to round."""
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    for number in range(rounds):
        order = ("before", "after") if number % 2 == 0 else ("after", "before")
        for name in order:
            runs[name].append(measure(trees[name], number))
        print(f"round {number + 1}: {runs['before'][-1]} -> {runs['after'][-1]}", flush=True)
    return runs


def compared(runs: dict[str, list[dict[str, float]]]) -> dict[str, Any]:
    """Alternating runs with each figure's per-round ratios after ÷ before, their median, and
    each side's medians."""
    ratios = {figure: [round(a[figure] / b[figure], 3)
                       for a, b in zip(runs["after"], runs["before"], strict=True)]
              for figure in runs["after"][0]}
    return {"runs": runs, "ratios_after_over_before": ratios,
            "median_ratio": {figure: median(values) for figure, values in ratios.items()},
            "median": {name: {figure: median([run[figure] for run in rounds])
                              for figure in rounds[0]} for name, rounds in runs.items()}}


def median(values: list[float]) -> float:
    """The median, rounded for a table."""
    return round(statistics.median(values), 3)


def slope(samples: list[tuple[float, float]]) -> float:
    """The least-squares slope of (seconds, bytes) samples, in MiB per second."""
    if len(samples) < 2:
        return 0.0
    n = len(samples)
    mean_t = sum(t for t, _ in samples) / n
    mean_m = sum(m for _, m in samples) / n
    spread = sum((t - mean_t) ** 2 for t, _ in samples) or 1.0
    return sum((t - mean_t) * (m - mean_m) for t, m in samples) / spread / 2**20


def memory_slope(samples: list[tuple[float, float]]) -> dict[str, float]:
    """How memory moved over (seconds, bytes) samples, in MiB per second: over all of them,
    their first half and their second half (a growth that levels off has a second half near 0,
    a leak has both halves alike)."""
    half = len(samples) // 2
    return {"mib_per_s": round(slope(samples), 4),
            "first_half_mib_per_s": round(slope(samples[:half + 1]), 4),
            "second_half_mib_per_s": round(slope(samples[half:]), 4)}


COUNTERS = """SELECT xact_commit + xact_rollback AS transactions, tup_returned AS rows_scanned,
    tup_fetched AS rows_fetched, tup_inserted AS rows_inserted, tup_updated AS rows_updated,
    tup_deleted AS rows_deleted FROM pg_stat_database WHERE datname = current_database()"""
STATS_FLUSH = 11.0  # seconds: an idle backend sends its counters within 10 s (Postgres 15)


async def database_counters(url: str) -> dict[str, int]:
    """The database's cumulative work so far (pg_stat_database), after letting the backends
    flush what they hold; the reading's own transaction is not counted."""
    await asyncio.sleep(STATS_FLUSH)
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(COUNTERS)
    finally:
        await conn.close()
    return {key: int(value) for key, value in dict(row).items()}


def per_operation(before: dict[str, int], after: dict[str, int], operations: int
                  ) -> dict[str, float]:
    """The database's work between two readings, per operation (one reading's transaction,
    the later one's, taken off)."""
    delta = {key: after[key] - before[key] for key in before}
    delta["transactions"] -= 1
    return {key: round(value / max(operations, 1), 2) for key, value in delta.items()}

