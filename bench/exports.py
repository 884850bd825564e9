"""Benchmark: the export formats of many matches, by size and by the time to answer an
organizer's two questions (win rate by seat, average match length) in duckdb and in polars.

``--matches`` random finished matches (default 10,000; the four built-in games in turn, fixed
seeds, tests/replay/random_matches.py) are exported through the server's own code
(service.exports.export_lines, one match at a time, so memory stays flat) as NDJSON (format 2),
the matches CSV, the events CSV and Parquet, plus the same NDJSON in format 1's shape (event data
and commands as nested objects) for comparison. Each file is then loaded by each tool, as the
tests/exports tests do it, and both questions answered; the best of ``--runs`` (default 3) is
reported, in a fresh connection or frame each time. Run:

    PYTHONPATH=. python -m bench.exports [--matches 10000] [--runs 3] [--keep DIR]

Results go to bench/results/exports.json; docs/export-format.md quotes them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import polars as pl

from bench import common
from domain.games import BUILT_IN, GAMES
from projections.tables import match_rows
from service.exports import document, export_lines, parquet
from service.store import ExportFilter, FinishedMatch
from tests.exports.matches import FinishedStore, row
from tests.replay.random_matches import play

FILES = {"ndjson": "matches.ndjson", "ndjson-format-1": "matches.v1.ndjson",
         "csv": "matches.csv", "events-csv": "events.csv", "parquet": "matches.parquet"}


async def write_all(count: int, folder: Path) -> dict[str, float]:
    """Play and export ``count`` matches into every format's file; seconds spent per format."""
    spent = dict.fromkeys(FILES, 0.0)
    outs = {kind: (folder / name).open("wb") for kind, name in FILES.items() if kind != "parquet"}
    rows: list[tuple[Any, ...]] = []
    for index in range(count):
        match = played_one(index)
        for kind, out in outs.items():
            began = time.perf_counter()
            if kind == "ndjson-format-1":
                out.write(msgspec.json.encode(document(finished(match))) + b"\n")
            else:
                body = b"".join([p async for p in export_lines(
                    FinishedStore([match]), ExportFilter(), kind)])
                out.write(body if kind == "ndjson" or index == 0 else body.split(b"\r\n", 1)[1])
            spent[kind] += time.perf_counter() - began
        began = time.perf_counter()
        rows += match_rows(document(finished(match)))
        spent["parquet"] += time.perf_counter() - began
    for out in outs.values():
        out.close()
    began = time.perf_counter()
    (folder / FILES["parquet"]).write_bytes(parquet(rows))
    spent["parquet"] += time.perf_counter() - began
    return spent


def played_one(index: int) -> Any:
    """Random finished match ``index``, of the built-in games in turn (fixed seeds)."""
    return play(index, game=GAMES[BUILT_IN[index % len(BUILT_IN)]])


def finished(match: Any) -> FinishedMatch:
    """A played match as the store hands it to the export."""
    return FinishedMatch(row=row(match), server_seed=match.server_seed, events=match.events)


def polars_ndjson(path: Path) -> tuple[Any, ...]:
    """Both answers from the NDJSON export in polars (as tests/exports does)."""
    header = pl.read_ndjson(path).select(pl.col("header").struct.unnest())
    when = {c: pl.col(c).str.to_datetime(time_zone="UTC") for c in ("started_at", "finished_at")}
    rates = (header.select(pl.col("result").struct.field("winners"),
                           seat=pl.int_ranges(0, pl.col("seats")))
             .explode("seat").group_by("seat")
             .agg(pl.col("winners").list.contains(pl.col("seat")).mean()).sort("seat"))
    length = header.select(
        (when["finished_at"] - when["started_at"]).dt.total_microseconds().mean() / 1e6).item()
    return rates.rows(), length


def polars_table(read: Callable[[Path], pl.DataFrame]) -> Callable[[Path], tuple[Any, ...]]:
    """Both answers from the per-seat table (CSV or Parquet) in polars."""
    def answer(path: Path) -> tuple[Any, ...]:
        table = read(path)
        rates = table.group_by("seat").agg(pl.col("winner").cast(pl.Float64).mean()).sort("seat")
        return rates.rows(), table.unique("match_id")["duration_seconds"].mean()
    return answer


def duckdb_ndjson(path: Path) -> tuple[Any, ...]:
    """Both answers from the NDJSON export in duckdb."""
    con = duckdb.connect()
    con.execute(f"CREATE TABLE m AS SELECT header FROM read_json('{path}')")
    rates = con.sql("""SELECT seat, avg(list_contains(header.result.winners, seat)::INTEGER)
        FROM (SELECT header, unnest(range(header.seats)) AS seat FROM m)
        GROUP BY seat ORDER BY seat""").fetchall()
    length = con.sql("SELECT avg(epoch(header.finished_at) - epoch(header.started_at)) FROM m"
                     ).fetchall()[0][0]
    return rates, length


def duckdb_table(reader: str) -> Callable[[Path], tuple[Any, ...]]:
    """Both answers from the per-seat table (read_csv or read_parquet) in duckdb."""
    def answer(path: Path) -> tuple[Any, ...]:
        con = duckdb.connect()
        con.execute(f"CREATE TABLE m AS SELECT * FROM {reader}('{path}')")
        rates = con.sql("SELECT seat, avg(winner::INTEGER) FROM m GROUP BY seat ORDER BY seat"
                        ).fetchall()
        length = con.sql("SELECT avg(d) FROM (SELECT DISTINCT match_id, duration_seconds AS d "
                         "FROM m)").fetchall()[0][0]
        return rates, length
    return answer


LOADS: dict[tuple[str, str], Callable[[Path], tuple[Any, ...]]] = {
    ("ndjson", "polars"): polars_ndjson,
    ("ndjson", "duckdb"): duckdb_ndjson,
    ("ndjson-format-1", "duckdb"): duckdb_ndjson,
    ("csv", "polars"): polars_table(pl.read_csv),
    ("csv", "duckdb"): duckdb_table("read_csv"),
    ("parquet", "polars"): polars_table(pl.read_parquet),
    ("parquet", "duckdb"): duckdb_table("read_parquet"),
}


def timed(load: Callable[[Path], tuple[Any, ...]], path: Path, runs: int) -> tuple[float, Any]:
    """The best wall time of ``runs`` loads, and the answer."""
    best, answer = float("inf"), None
    for _ in range(runs):
        began = time.perf_counter()
        answer = load(path)
        best = min(best, time.perf_counter() - began)
    return best, answer


def measure(count: int, runs: int, folder: Path) -> dict[str, Any]:
    """Write every format, then load each in each tool; sizes, times and the answers."""
    written = asyncio.run(write_all(count, folder))
    sizes = {kind: (folder / name).stat().st_size for kind, name in FILES.items()}
    loads: dict[str, Any] = {}
    for (kind, tool), load in LOADS.items():
        seconds, (rates, length) = timed(load, folder / FILES[kind], runs)
        loads[f"{kind} {tool}"] = {"seconds": round(seconds, 3), "average_length": length,
                                   "seat_0_win_rate": rates[0][1]}
        print(f"{kind:>16} {tool:>6}: {seconds:7.3f} s  (seat 0 wins {rates[0][1]:.4f}, "
              f"average length {length:.4f} s)", flush=True)
    return {"matches": count, "runs": runs, "bytes": sizes,
            "write_seconds": {k: round(v, 2) for k, v in written.items()}, "loads": loads}


def main() -> None:
    """Parse the arguments, measure, print and save the figures (bench/results/exports.json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        with tempfile.TemporaryDirectory() as scratch:
            folder = args.keep or Path(scratch)
            folder.mkdir(parents=True, exist_ok=True)
            return measure(args.matches, args.runs, folder)

    saved = common.run_and_save("exports", work)
    for kind, size in json.loads(saved.read_text())["bytes"].items():
        print(f"{kind:>16}: {size / 1e6:9.1f} MB")


if __name__ == "__main__":
    main()
