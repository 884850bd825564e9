"""PostgresStore's read side over many matches: the match list, due matches and the exports."""

from __future__ import annotations

from collections.abc import AsyncIterator
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
WHERE status = 'playing' AND {_DUE_AT} <= now()
ORDER BY {_DUE_AT} LIMIT $2
"""

_FINISHED_WHERE = """status = 'finished'
    AND ($1::text IS NULL OR tournament = $1) AND ($2::text IS NULL OR game = $2)
    AND ($3::timestamptz IS NULL OR finished_at >= $3)
    AND ($4::timestamptz IS NULL OR finished_at < $4)"""

_FINISHED = f"""SELECT {MATCH_COLUMNS}, server_seed FROM {MATCHES} WHERE {_FINISHED_WHERE}
    ORDER BY finished_at, match_id"""

# One row per match, its events as arrays: a cursor over it holds one batch of matches at a time.
_FINISHED_WITH_EVENTS = f"""
SELECT m.*, e.* FROM ({_FINISHED} OFFSET 0) AS m CROSS JOIN LATERAL (
    SELECT array_agg(ev.version ORDER BY ev.version) AS versions,
        array_agg(ev.type ORDER BY ev.version) AS types,
        array_agg(ev.data::text ORDER BY ev.version) AS datas,
        array_agg(ev.metadata::text ORDER BY ev.version) AS metadatas,
        array_agg(ev.recorded_at ORDER BY ev.version) AS times,
        array_agg(ev.hash ORDER BY ev.version) AS hashes
    FROM events AS ev WHERE ev.match_id = m.match_id) AS e
ORDER BY m.finished_at, m.match_id"""

EXPORT_PREFETCH = 32


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


async def due_matches(pool: asyncpg.Pool, bot_delay: float, limit: int) -> list[str]:
    """Matches in play where a bot is to act or a turn clock ran out (see protocol.is_due)."""
    rows = await pool.fetch(_DUE, bot_delay, limit)
    return [str(row["match_id"]) for row in rows]


async def finished_matches(
    pool: asyncpg.Pool, filters: ExportFilter, events: bool
) -> AsyncIterator[FinishedMatch]:
    """Finished matches passing the filters, oldest finish first, read through a cursor."""
    query = _FINISHED_WITH_EVENTS if events else _FINISHED
    async with pool.acquire() as conn:
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            cursor = conn.cursor(query, *_filter_args(filters), prefetch=EXPORT_PREFETCH)
            async for record in cursor:
                yield _finished(record, events)


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


def _finished(record: asyncpg.Record, with_events: bool) -> FinishedMatch:
    """A FinishedMatch from one row of the export query."""
    values = dict(record)
    values["match_id"] = str(values["match_id"])
    values["summary"] = msgspec.convert(values["summary"], Summary)
    row = MatchRow(**{field: values[field] for field in MatchRow.__struct_fields__})
    events = _events(row.match_id, values) if with_events else []
    return FinishedMatch(row=row, server_seed=values["server_seed"], events=events)


def _events(match_id: str, values: dict[str, Any]) -> list[StoredEvent]:
    """The events of one export row, from its parallel arrays."""
    names = ("versions", "types", "datas", "metadatas", "times", "hashes")
    return [
        StoredEvent(
            match_id=match_id,
            version=version,
            type=type_,
            data=data.encode(),
            metadata=msgspec.json.decode(metadata),
            recorded_at=at,
            hash=hash_,
        )
        for version, type_, data, metadata, at, hash_ in zip(
            *(values[name] for name in names), strict=True
        )
    ]
