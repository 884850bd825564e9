"""The tables an organizer analyses, cut from export documents: a row per seat, a row per event.

Pure: each function takes one finished match's MatchExport (projections.export) and returns its
rows in its columns' order, with typed values (ints, bools, datetimes, None). The CSV answers
(service.exports, every cell through domain.core.cells) and the Parquet answer write these same
rows. docs/export-format.md names and explains every column.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Final

import msgspec

from projections.export import MatchExport

_TABLE_LABEL = re.compile(r"round (\d+) table (\d+)")
# A row per seat per match: each column and the kind of its values (service.exports writes each
# kind as its Parquet type). The first ten are the columns of the first CSV, in their old order;
# later columns are only ever added at the end, so a reader that indexes by position keeps
# working. A new column is one line here and one value in match_rows.
MATCH_KINDS: Final = {
    "match_id": "text",
    "game": "text",
    "tournament": "text",
    "seat": "integer",
    "name": "text",
    "placement": "integer",
    "score": "integer",
    "finished_at": "time",
    "head_hash": "text",
    "bot": "text",
    "rules_version": "text",
    "seats": "integer",
    "winner": "flag",
    "created_at": "time",
    "started_at": "time",
    "duration_seconds": "seconds",
    "moves": "integer",
    "round": "integer",  # a tournament's table: its round and table (from its label), else empty
    "table": "integer",
}
MATCH_COLUMNS: Final = tuple(MATCH_KINDS)
# A row per event per match, in version order.
EVENT_COLUMNS: Final = (
    "match_id",
    "game",
    "version",
    "type",
    "seat",
    "command_id",
    "command",
    "data",
    "recorded_at",
    "hash",
)


def match_rows(document: MatchExport) -> list[tuple[Any, ...]]:
    """One row per seat of a finished match, in MATCH_COLUMNS order."""
    header, result = document.header, document.header.result
    if result is None:
        raise ValueError(f"match {header.match_id} is not finished")
    duration = seconds_between(header.started_at, header.finished_at)
    return [
        (
            header.match_id,
            header.game,
            header.tournament,
            player.seat,
            player.name,
            result.placements[player.seat],
            result.scores[player.seat],
            header.finished_at,
            header.head_hash,
            player.bot,
            header.rules_version,
            header.seats,
            player.seat in result.winners,
            header.created_at,
            header.started_at,
            duration,
            header.moves,
            *tournament_table(header.tournament, header.label),
        )
        for player in header.players
    ]


def tournament_table(tournament: str | None, label: str | None) -> tuple[int | None, int | None]:
    """A tournament table's round and table, read from the label its round gave it ("round 2
    table 5", service.tournament.rounds); (None, None) for any other match."""
    found = _TABLE_LABEL.fullmatch(label or "") if tournament else None
    return (int(found[1]), int(found[2])) if found else (None, None)


def event_rows(document: MatchExport) -> list[tuple[Any, ...]]:
    """One row per event of a finished match, in EVENT_COLUMNS order: its data and command as
    compact JSON text (the data exactly the canonical bytes that were hashed)."""
    header = document.header
    return [
        (
            header.match_id,
            header.game,
            event.version,
            event.type,
            event.metadata.seat,
            event.metadata.command_id,
            None if event.metadata.command is None
            else msgspec.json.encode(event.metadata.command).decode(),
            bytes(event.data).decode(),
            event.recorded_at,
            event.hash,
        )
        for event in document.events
    ]


def seconds_between(start: datetime | None, end: datetime | None) -> float | None:
    """The seconds from start to end, to the millisecond; None when either is unknown."""
    if start is None or end is None:
        return None
    return round((end - start).total_seconds(), 3)
