"""An organizer's questions answered from each export format by polars and duckdb, used as
their guides show (`pl.read_ndjson(path)`, `read_json(path)`, no schema given): the win rate by
seat and the average match length (in seconds and in moves), equal to what was played.

The matches are random finished matches of every built-in game (fixed seeds), exported through
the server's own export code (tests/exports/matches.py).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import polars as pl
import pytest

from projections.tables import EVENT_COLUMNS, MATCH_COLUMNS
from service.errors import ServiceError
from service.exports import parquet
from tests.exports.matches import exported, played, truth

MATCHES = 16  # four of each built-in game, 2 to 20 seats


@pytest.fixture(scope="module")
def matches() -> list[Any]:
    """The played matches."""
    return played(MATCHES)


@pytest.fixture(scope="module")
def files(matches: list[Any], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each format's export of the matches, written to a file as `hearthlog export` would."""
    folder = tmp_path_factory.mktemp("exports")
    written = {}
    for format, suffix in (("ndjson", "ndjson"), ("csv", "csv"), ("events-csv", "events.csv"),
                           ("parquet", "parquet")):
        written[format] = folder / f"matches.{suffix}"
        written[format].write_bytes(asyncio.run(exported(matches, format)))
    return written


def answers_from_polars(seats: pl.DataFrame, per_match: pl.DataFrame) -> dict[str, Any]:
    """Win rate by seat from a frame of (seat, won); averages from (length, moves) per match."""
    rates = seats.group_by("seat").agg(pl.col("won").cast(pl.Float64).mean()).sort("seat")
    return {
        "win_rate": dict(zip(rates["seat"].to_list(), rates["won"].to_list(), strict=True)),
        "length": per_match["length"].mean(),
        "moves": per_match["moves"].mean(),
    }


def assert_same(found: dict[str, Any], expected: dict[str, Any]) -> None:
    """The answers agree (lengths to the microsecond a float carries)."""
    assert found["win_rate"] == pytest.approx(expected["win_rate"])
    assert found["length"] == pytest.approx(expected["length"], abs=1e-6)
    assert found["moves"] == pytest.approx(expected["moves"])


def test_polars_reads_the_ndjson_export_and_answers_win_rate_by_seat_and_match_length(
    matches, files
):
    """Given the NDJSON export, when polars reads it with read_ndjson and no schema, then one
    row per match, and its header answers both questions as the matches were played."""
    frame = pl.read_ndjson(files["ndjson"])
    header = frame.select(pl.col("header").struct.unnest())
    when = {c: pl.col(c).str.to_datetime(time_zone="UTC") for c in ("started_at", "finished_at")}
    seats = (header.select(pl.col("result").struct.field("winners"),
                           seat=pl.int_ranges(0, pl.col("seats")))
             .explode("seat").select("seat", won=pl.col("winners").list.contains(pl.col("seat"))))
    per_match = header.select(
        length=(when["finished_at"] - when["started_at"]).dt.total_microseconds() / 1e6,
        moves="moves")

    assert frame.height == len(matches)
    assert_same(answers_from_polars(seats, per_match), truth(matches))


def test_duckdb_reads_the_ndjson_export_and_answers_win_rate_by_seat_and_match_length(
    matches, files
):
    """Given the NDJSON export, when duckdb reads it with read_json and no schema, then its
    header answers both questions as the matches were played."""
    source = f"read_json('{files['ndjson']}')"
    rates = duckdb.sql(f"""
        SELECT seat, avg(list_contains(header.result.winners, seat)::INTEGER)
        FROM (SELECT header, unnest(range(header.seats)) AS seat FROM {source})
        GROUP BY seat ORDER BY seat""").fetchall()
    length, moves = duckdb.sql(f"""
        SELECT avg(epoch(header.finished_at) - epoch(header.started_at)), avg(header.moves)
        FROM {source}""").fetchall()[0]

    assert_same({"win_rate": dict(rates), "length": length, "moves": moves}, truth(matches))


def test_the_matches_csv_answers_both_questions_from_a_row_per_seat(matches, files):
    """Given format=csv, when polars reads it, then it has the documented columns, a row per
    seat, and its winner flag, duration and moves answer both questions."""
    table = pl.read_csv(files["csv"])
    per_match = table.unique("match_id").select(length="duration_seconds", moves="moves")

    assert tuple(table.columns) == MATCH_COLUMNS
    assert table.height == sum(len(m.summary.names) for m in matches)
    assert_same(answers_from_polars(table.select("seat", won="winner"), per_match),
                truth(matches))
    assert set(table["rules_version"].cast(pl.String)) <= {"1", "2"}


def test_the_events_csv_has_a_row_per_event_with_its_hashed_bytes(matches, files):
    """Given format=events-csv, when duckdb reads it, then a row per event in version order,
    each with the canonical bytes that were hashed and the command that caused it."""
    rows = duckdb.sql(f"SELECT * FROM read_csv('{files['events-csv']}', all_varchar=true)")
    table = rows.fetchall()

    assert tuple(rows.columns) == EVENT_COLUMNS
    stored = [(m.match_id, e) for m in sorted(matches, key=lambda m: m.finished_at)
              for e in m.events]
    assert len(table) == len(stored)
    for (match_id, event), found in zip(stored, table, strict=True):
        assert found[0] == match_id and int(found[2]) == event.version
        assert found[7].encode() == event.data and found[9] == event.hash.hex()
        command = event.metadata.get("command")
        assert (found[6] and msgspec.json.decode(found[6])) == (command or None)


def test_the_parquet_export_is_the_matches_table_typed(matches, files):
    """Given format=parquet, when polars and duckdb read it, then it is the matches CSV's
    table with typed columns (a boolean winner, times with their zone), answering the same."""
    table = pl.read_parquet(files["parquet"])
    per_match = table.unique("match_id").select(length="duration_seconds", moves="moves")
    length = duckdb.sql(f"""SELECT avg(duration_seconds) FROM (SELECT DISTINCT match_id,
        duration_seconds FROM read_parquet('{files['parquet']}'))""").fetchall()[0][0]

    assert tuple(table.columns) == MATCH_COLUMNS
    assert table.schema["winner"] == pl.Boolean
    assert table.schema["finished_at"] == pl.Datetime("us", "UTC")
    assert_same(answers_from_polars(table.select("seat", won="winner"), per_match),
                truth(matches))
    assert length == pytest.approx(truth(matches)["length"], abs=1e-6)


def test_without_polars_a_parquet_export_is_a_501_naming_the_extra(monkeypatch):
    """Given a server installed without the parquet extra, when Parquet is asked for, then a
    501 says which extra to install and which format to ask for instead."""
    monkeypatch.setitem(sys.modules, "polars", None)  # `import polars` now fails

    with pytest.raises(ServiceError) as refused:
        parquet([])

    assert refused.value.status == 501
    assert "hearthlog[parquet]" in str(refused.value) and "format=csv" in str(refused.value)
