"""PostgresStore's read side over many matches: the match list, due matches and the exports."""

from __future__ import annotations

import asyncio
import os
import weakref
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import asyncpg
import msgspec

from projections.summary import Summary
from service.store.records import ExportFilter, FinishedMatch, MatchRow, StoredEvent

# A match row with its head (version, head hash, time of the last append), kept apart in
# ``heads`` because every append moves it (service.store.append).
MATCH_COLUMNS = """match_id, game, rules_version, status, seats, seats_taken, practice,
    tournament, label, version, head_hash, seed_commitment, summary, created_at, updated_at,
    finished_at, owed_since, bot_owed_since, invite_hash IS NOT NULL AS private"""
MATCHES = "matches JOIN heads USING (match_id)"

# Per-seat clocks (migration 0006): due when the longest-owing bot seat has waited the bot delay,
# or the longest-owing seat's turn clock ran out; soonest first.
_DUE_AT = """least(bot_owed_since + make_interval(secs => $1),
    owed_since + make_interval(secs => (summary->>'turn_seconds')::int))"""
_DUE = f"""
SELECT match_id FROM {MATCHES}
WHERE status = 'playing' AND {_DUE_AT} <= $3
ORDER BY {_DUE_AT} LIMIT $2
"""

_FINISHED_WHERE = """status = 'finished'
    AND ($1::text IS NULL OR tournament = $1) AND ($2::text IS NULL OR game = $2)
    AND ($3::timestamptz IS NULL OR finished_at >= $3)
    AND ($4::timestamptz IS NULL OR finished_at < $4)"""

# Paged by key, oldest finish first: each page is a read of the match group alone (matches and
# heads, joined by match_id), which Citus sends to every shard with its ORDER BY and LIMIT and
# merges; then the page's events, by match_id. No cursor over a join: Citus cannot push down a
# LATERAL join under an ORDER BY ... OFFSET subquery (docs/scaling.md).
_FINISHED_PAGE = f"""SELECT {MATCH_COLUMNS}, server_seed FROM {MATCHES} WHERE {_FINISHED_WHERE}
    AND ($5::timestamptz IS NULL OR (finished_at, match_id) > ($5, $6::uuid))
    ORDER BY finished_at, match_id LIMIT $7"""
_PAGE_EVENTS = """SELECT match_id, version, type, data::text AS data, metadata::text AS metadata,
    recorded_at, hash FROM events WHERE match_id = ANY($1::uuid[]) ORDER BY match_id, version"""

EXPORT_PAGE = 32  # matches read at a time: the export holds one page of them
EXPORTS_VARIABLE = "HEARTHLOG_EXPORTS"
EXPORTS = 4  # bulk exports reading at once per process; the rest wait (docs/limits.md)
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary())


def export_slots() -> asyncio.Semaphore:
    """This process's (this event loop's) bulk export slots: HEARTHLOG_EXPORTS, else EXPORTS.

    Each export holds a pooled connection for as long as its client takes to read it; a few
    slots keep exports from ever holding the connections the command path needs.
    """
    loop = asyncio.get_running_loop()
    if loop not in _slots:
        _slots[loop] = asyncio.Semaphore(int(os.environ.get(EXPORTS_VARIABLE) or EXPORTS))
    return _slots[loop]


async def list_matches(pool: asyncpg.Pool, filters: dict[str, Any], limit: int,
                       offset: int) -> list[MatchRow]:
    """Matches whose columns equal every filter that is not None, newest first, one page."""
    given = {column: value for column, value in filters.items() if value is not None}
    where = " AND ".join(f"{c} = ${n}" for n, c in enumerate(given, start=1)) or "true"
    n = len(given)
    rows = await pool.fetch(
        f"""SELECT {MATCH_COLUMNS} FROM {MATCHES} WHERE {where}
        ORDER BY created_at DESC, match_id DESC LIMIT ${n + 1} OFFSET ${n + 2}""",
        *given.values(),
        limit,
        offset,
    )
    return [match_row(row) for row in rows]


async def due_matches(pool: asyncpg.Pool, bot_delay: float, limit: int,
                      now: datetime) -> list[str]:
    """Matches in play where a bot is to act or a turn clock ran out by ``now`` (see
    protocol.is_due)."""
    rows = await pool.fetch(_DUE, bot_delay, limit, now)
    return [str(row["match_id"]) for row in rows]


async def finished_matches(
    pool: asyncpg.Pool, filters: ExportFilter, events: bool
) -> AsyncIterator[FinishedMatch]:
    """Finished matches passing the filters, oldest finish first, a page at a time, all read in
    one read-only transaction (one snapshot on one Postgres; on Citus, one per node), within
    one of the process's export slots."""
    async with export_slots(), pool.acquire() as conn:
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            after: tuple[Any, Any] = (None, None)
            while True:
                page = await conn.fetch(_FINISHED_PAGE, *_filter_args(filters), *after,
                                        EXPORT_PAGE)
                found = await _page_events(conn, page) if events else {}
                for record in page:
                    yield _finished(record, found.get(record["match_id"], []))
                if len(page) < EXPORT_PAGE:
                    return
                after = (page[-1]["finished_at"], page[-1]["match_id"])


async def _page_events(conn: asyncpg.Connection, page: list[asyncpg.Record],
                       ) -> dict[Any, list[StoredEvent]]:
    """The events of a page's matches, by match id, each match's in version order."""
    found: dict[Any, list[StoredEvent]] = {record["match_id"]: [] for record in page}
    if not found:
        return found
    for row in await conn.fetch(_PAGE_EVENTS, list(found)):
        found[row["match_id"]].append(StoredEvent(
            match_id=str(row["match_id"]), version=row["version"], type=row["type"],
            data=row["data"].encode(), metadata=msgspec.json.decode(row["metadata"]),
            recorded_at=row["recorded_at"], hash=row["hash"]))
    return found


async def count_finished(pool: asyncpg.Pool, filters: ExportFilter) -> int:
    """How many finished matches pass the filters."""
    query = f"SELECT count(*) FROM matches WHERE {_FINISHED_WHERE}"
    count: int = await pool.fetchval(query, *_filter_args(filters))
    return count


def match_row(row: asyncpg.Record) -> MatchRow:
    """A MatchRow from a database row."""
    values = dict(row)
    values["match_id"] = str(values["match_id"])
    values["summary"] = msgspec.convert(values["summary"], Summary)
    return MatchRow(**values)


def _filter_args(filters: ExportFilter) -> tuple[Any, ...]:
    """The export query's parameters, in the order $1..$4."""
    return (filters.tournament, filters.game, filters.finished_after, filters.finished_before)


def _finished(record: asyncpg.Record, events: list[StoredEvent]) -> FinishedMatch:
    """A FinishedMatch from one row of an export page, with its events (none for CSV)."""
    values = dict(record)
    values["match_id"] = str(values["match_id"])
    values["summary"] = msgspec.convert(values["summary"], Summary)
    row = MatchRow(**{field: values[field] for field in MatchRow.__struct_fields__})
    return FinishedMatch(row=row, server_seed=values["server_seed"], events=events)
