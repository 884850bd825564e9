"""The event store: its records, its errors, its contract, and the Postgres implementation.

A match is one stream of events keyed by (match_id, version). Appends are optimistic: the
caller names the version it decided on, and the store refuses when another writer got there
first. Everything one append changes (events, match row, seat token, command record) lands in
one transaction or not at all. ``service.memory_store.MemoryStore`` keeps the same contract.
Postgres also announces every committed append on the channel ``hearthlog`` as
``<match_id>:<version>`` (service.live listens), just after its commit: service.pg_append
writes an append in one statement and says why the announcement waits for the commit.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any, Protocol

import asyncpg
import msgspec

from domain.core.chain import GENESIS, link
from service import pg_append
from service.lru import Lru
from service.snapshots import Snapshot


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event to append: its tag, its canonical JSON bytes and free-form metadata."""

    type: str
    data: bytes
    metadata: dict[str, Any] = {}


class NewMatch(msgspec.Struct, frozen=True, kw_only=True):
    """A match to create: its row, its secrets (server seed, host token hash) and first event."""

    match_id: str
    game: str
    rules_version: str
    seats: int
    practice: bool
    tournament: str | None
    label: str | None
    seed_commitment: str
    server_seed: bytes
    host_token_hash: bytes | None
    first: NewEvent
    summary: dict[str, Any]


class OwedSince(msgspec.Struct, frozen=True, kw_only=True):
    """For the clock's sweep: the match version at which the seat owing its move the longest
    began to owe it (None: nobody owes, or the match has no clock), and the same among bot seats.
    The store turns each into that event's recorded time (this append's own, for a new one)."""

    clock: int | None = None
    bots: int | None = None


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as stored; ``data`` is exactly the bytes appended (and hashed)."""

    match_id: str
    version: int
    type: str
    data: bytes
    metadata: dict[str, Any]
    recorded_at: datetime
    hash: bytes


class MatchRow(msgspec.Struct, frozen=True, kw_only=True):
    """A match's row without its secrets (server seed, host token hash)."""

    match_id: str
    game: str
    rules_version: str
    status: str
    seats: int
    seats_taken: int
    practice: bool
    tournament: str | None
    label: str | None
    version: int
    head_hash: bytes
    seed_commitment: str
    summary: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    owed_since: datetime | None = None  # see OwedSince: when the longest-owing seat began to owe
    bot_owed_since: datetime | None = None  # ... and the longest-owing bot seat


class CommandRecord(msgspec.Struct, frozen=True, kw_only=True):
    """The first answer to a command id, kept so a retry gets the same bytes."""

    command_id: str
    seat: int | None
    response: bytes
    status_code: int
    version: int
    recorded_at: datetime | None = None


class ExportFilter(msgspec.Struct, frozen=True, kw_only=True):
    """Which finished matches to export: finished_after <= finished_at < finished_before."""

    tournament: str | None = None
    game: str | None = None
    finished_after: datetime | None = None
    finished_before: datetime | None = None


class FinishedMatch(msgspec.Struct, frozen=True, kw_only=True):
    """A finished match for export: its row, its now-published server seed, its events."""

    row: MatchRow
    server_seed: bytes
    events: list[StoredEvent]


class StoreError(Exception):
    """The store refused a write."""


class UnknownMatch(StoreError):
    """No match has this id."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"no match {match_id}")
        self.match_id = match_id


class VersionConflict(StoreError):
    """Another writer moved the match on; reload and decide again."""

    def __init__(self, current: int, expected: int | None = None) -> None:
        wanted = "" if expected is None else f", not {expected}"
        super().__init__(f"the match is at version {current}{wanted}")
        self.current = current
        self.expected = expected


class DuplicateCommand(StoreError):
    """This command id was already recorded for the match; nothing was written."""

    def __init__(self, match_id: str, command_id: str) -> None:
        super().__init__(f"command {command_id} was already applied to match {match_id}")
        self.match_id = match_id
        self.command_id = command_id


class EventStore(Protocol):
    """What the application needs from a store; every backend passes the same contract tests."""

    async def create_match(self, new: NewMatch) -> StoredEvent: ...

    async def append(
        self,
        match_id: str,
        expected_version: int,
        events: list[NewEvent],
        *,
        status: str,
        summary: dict[str, Any],
        seats_taken: int | None = None,
        finished: bool = False,
        seat_token: tuple[int, bytes] | None = None,
        command: CommandRecord | None = None,
        owed: OwedSince | None = None,
    ) -> list[StoredEvent]: ...

    async def load(
        self, match_id: str, after: int = 0, upto: int | None = None
    ) -> list[StoredEvent]: ...

    async def get_match(self, match_id: str) -> MatchRow | None: ...

    async def list_matches(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        tournament: str | None = None,
        practice: bool | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[MatchRow]: ...

    async def find_command(self, match_id: str, command_id: str) -> CommandRecord | None: ...

    async def seat_for_token(self, match_id: str, token_hash: bytes) -> int | None: ...

    async def host_token_hash(self, match_id: str) -> bytes | None: ...

    async def server_seed(self, match_id: str) -> bytes | None: ...

    def finished_matches(
        self, filters: ExportFilter, *, events: bool = True
    ) -> AsyncIterator[FinishedMatch]: ...

    async def count_finished(self, filters: ExportFilter) -> int: ...

    async def due_matches(self, *, bot_delay: float, limit: int = 100) -> list[str]: ...

    async def save_snapshot(
        self, match_id: str, version: int, fingerprint: str, state: bytes
    ) -> None: ...

    async def latest_snapshot(self, match_id: str) -> Snapshot | None: ...


@functools.lru_cache(maxsize=20_000)
def match_uuid(match_id: str) -> uuid.UUID | None:
    """The match id as a UUID, or None when it is not one (so no match can have it); kept,
    since every request parses its match's id several times."""
    try:
        return uuid.UUID(str(match_id))
    except ValueError:
        return None


def exportable(row: MatchRow, filters: ExportFilter) -> bool:
    """Whether a match is finished and passes every given export filter (as the SQL does)."""
    when = row.finished_at
    return (
        row.status == "finished"
        and when is not None
        and filters.tournament in (None, row.tournament)
        and filters.game in (None, row.game)
        and (filters.finished_after is None or when >= filters.finished_after)
        and (filters.finished_before is None or when < filters.finished_before)
    )


STATUSES = ("lobby", "playing", "finished")
CHANNEL = "hearthlog"


def due_at(row: MatchRow, bot_delay: float) -> datetime | None:
    """When the server next owes a move in play: the longest-owing bot seat ``bot_delay`` after
    it began to owe, or the longest-owing seat's turn clock running out; None: never."""
    if row.status != "playing":
        return None
    clock = row.summary.get("turn_seconds")
    dues = [
        row.bot_owed_since + timedelta(seconds=bot_delay) if row.bot_owed_since else None,
        row.owed_since + timedelta(seconds=clock) if row.owed_since and clock is not None else None,
    ]
    return min((due for due in dues if due is not None), default=None)


def is_due(row: MatchRow, bot_delay: float, now: datetime) -> bool:
    """In play, and a bot seat has owed its move ``bot_delay`` seconds or a turn clock ran out."""
    due = due_at(row, bot_delay)
    return due is not None and due <= now


def check_write(status: str, events: list[NewEvent]) -> None:
    """Refuse an unknown status or event data that is not JSON, before anything is written."""
    if status not in STATUSES:
        raise StoreError(f"unknown match status {status!r}")
    for event in events:
        try:
            msgspec.json.decode(event.data)
        except msgspec.DecodeError as error:
            raise StoreError(f"event {event.type} data is not JSON: {error}") from error


# A match row with its head (version, head hash, time of the last append), kept apart in
# ``heads`` because every append moves it (service.pg_append).
_MATCH_COLUMNS = """match_id, game, rules_version, status, seats, seats_taken, practice,
    tournament, label, version, head_hash, seed_commitment, summary, created_at, updated_at,
    finished_at, owed_since, bot_owed_since"""
_MATCHES = "matches JOIN heads USING (match_id)"

_INSERT_MATCH = """
WITH match_row AS (
    INSERT INTO matches (match_id, game, rules_version, status, seats, practice, tournament,
        label, seed_commitment, server_seed, host_token_hash, summary)
    VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $9, $10, $11)
    RETURNING created_at
), head AS (
    INSERT INTO heads (match_id, version, head_hash, updated_at)
    SELECT $1, 1, $12, created_at FROM match_row
), first_event AS (
    INSERT INTO events (match_id, version, type, data, metadata, hash)
    SELECT $1, 1, $13, $14::json, $15, $12 FROM match_row
)
SELECT created_at FROM match_row
"""

# Per-seat clocks (migration 0006): due when the longest-owing bot seat has waited the bot delay,
# or the longest-owing seat's turn clock ran out; soonest first.
_DUE_AT = """least(bot_owed_since + make_interval(secs => $1),
    owed_since + make_interval(secs => (summary->>'turn_seconds')::int))"""
_DUE = f"""
SELECT match_id FROM {_MATCHES}
WHERE status = 'playing' AND {_DUE_AT} <= now()
ORDER BY {_DUE_AT} LIMIT $2
"""

# The hash comes from the event itself, so a snapshot is always paired with its history.
_SAVE_SNAPSHOT = """
INSERT INTO snapshots AS s (match_id, version, hash, fingerprint, state, checksum)
SELECT e.match_id, e.version, e.hash, $3, $4, sha256(convert_to($3, 'UTF8') || e.hash || $4)
FROM events e WHERE e.match_id = $1 AND e.version = $2
ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, hash = excluded.hash,
    fingerprint = excluded.fingerprint, state = excluded.state, checksum = excluded.checksum,
    taken_at = now()
WHERE s.version < excluded.version OR s.fingerprint <> excluded.fingerprint
"""

_LATEST_SNAPSHOT = """SELECT version, hash, fingerprint, state, checksum FROM snapshots
    WHERE match_id = $1"""

_FINISHED_WHERE = """status = 'finished'
    AND ($1::text IS NULL OR tournament = $1) AND ($2::text IS NULL OR game = $2)
    AND ($3::timestamptz IS NULL OR finished_at >= $3)
    AND ($4::timestamptz IS NULL OR finished_at < $4)"""

_FINISHED = f"""SELECT {_MATCH_COLUMNS}, server_seed FROM {_MATCHES} WHERE {_FINISHED_WHERE}
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


class PostgresStore:
    """The event store on Postgres, through an asyncpg pool made by ``service.postgres``."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self.heads = pg_append.Heads()
        self.seats = Lru(20_000)
        self.announcer = pg_append.Announcer(pool, CHANNEL)

    async def create_match(self, new: NewMatch) -> StoredEvent:
        """Insert the match row, its head and its first event in one statement."""
        key, first = _require_uuid(new.match_id), new.first
        check_write("lobby", [first])
        head, written = link(GENESIS, first.data), msgspec.json.encode(new.summary)
        row: pg_append.Row = ("lobby", written, None, False)
        try:
            created_at = await self.pool.fetchval(
                _INSERT_MATCH, key, new.game, new.rules_version, new.seats, new.practice,
                new.tournament, new.label, new.seed_commitment, new.server_seed,
                new.host_token_hash, written, head, first.type, first.data.decode(),
                first.metadata)
        except asyncpg.UniqueViolationError as error:
            raise StoreError(f"match {key} already exists") from error
        self.heads.put(key, 1, head, row)
        self.announcer.announce(f"{key}:1")
        return _stored(str(key), 1, first, created_at, head)

    async def append(
        self,
        match_id: str,
        expected_version: int,
        events: list[NewEvent],
        *,
        status: str,
        summary: dict[str, Any],
        seats_taken: int | None = None,
        finished: bool = False,
        seat_token: tuple[int, bytes] | None = None,
        command: CommandRecord | None = None,
        owed: OwedSince | None = None,
    ) -> list[StoredEvent]:
        """Append at ``expected_version`` with everything that goes with it, or write nothing."""
        key = match_uuid(match_id)
        if key is None:
            raise UnknownMatch(match_id)
        check_write(status, events)
        row = (status, msgspec.json.encode(summary), seats_taken, finished)
        since = (None, None) if owed is None else (owed.clock, owed.bots)
        now, hashes = await self._append_once(key, expected_version, events, row, seat_token,
                                              command, since)
        canonical = str(key)
        if hashes:
            self.announcer.announce(f"{canonical}:{expected_version + len(events)}")
        return [
            _stored(canonical, expected_version + n, e, now, h)
            for n, (e, h) in enumerate(zip(events, hashes, strict=True), start=1)
        ]

    async def _append_once(
        self, key: uuid.UUID, expected: int, events: list[NewEvent], row: pg_append.Row,
        seat_token: tuple[int, bytes] | None, command: CommandRecord | None,
        since: tuple[int | None, int | None] = (None, None),
    ) -> tuple[datetime, list[bytes]]:
        """One statement chained from the known head; once more if that head was not current."""
        head = self.heads.get(key, expected)
        if head is None:
            head = _checked(key, expected, *await pg_append.read_head(self.pool, key))
        for _ in range(2):
            try:
                changed = None if self.heads.row(key, expected, head) == row else row
                now, hashes = await pg_append.append_once(
                    self.pool, key, expected, head, events, changed, seat_token, command, since)
            except pg_append.Refused as refused:
                head = _checked(key, expected, refused.version, refused.head)
                self.heads.put(key, expected, head)
            except asyncpg.UniqueViolationError as error:
                raise _unique_refusal(key, error, command) from error
            else:
                after = hashes[-1] if hashes else head
                self.heads.put(key, expected + len(events), after, row)
                return now, hashes
        raise StoreError(f"match {key} changed its head hash at version {expected}")

    async def load(
        self, match_id: str, after: int = 0, upto: int | None = None
    ) -> list[StoredEvent]:
        """The match's events with after < version <= upto, in version order."""
        key = match_uuid(match_id)
        if key is None:
            return []
        rows = await self.pool.fetch(
            """SELECT version, type, data::text AS data, metadata, recorded_at, hash FROM events
            WHERE match_id = $1 AND version > $2 AND ($3::int IS NULL OR version <= $3)
            ORDER BY version""",
            key,
            after,
            upto,
        )
        return [
            StoredEvent(**{**dict(r), "match_id": str(key), "data": r["data"].encode()})
            for r in rows
        ]

    async def get_match(self, match_id: str) -> MatchRow | None:
        """The match's row, or None."""
        key = match_uuid(match_id)
        if key is None:
            return None
        row = await self.pool.fetchrow(
            f"SELECT {_MATCH_COLUMNS} FROM {_MATCHES} WHERE match_id = $1", key
        )
        if row is None:
            return None
        self.heads.put(key, row["version"], row["head_hash"])
        return _match_row(row)

    async def list_matches(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        tournament: str | None = None,
        practice: bool | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[MatchRow]:
        """Matches passing every given filter, newest first, one page."""
        filters = {"game": game, "status": status, "tournament": tournament, "practice": practice}
        given = {column: value for column, value in filters.items() if value is not None}
        where = " AND ".join(f"{c} = ${n}" for n, c in enumerate(given, start=1)) or "true"
        n = len(given)
        rows = await self.pool.fetch(
            f"""SELECT {_MATCH_COLUMNS} FROM {_MATCHES} WHERE {where}
            ORDER BY created_at DESC, match_id DESC LIMIT ${n + 1} OFFSET ${n + 2}""",
            *given.values(),
            limit,
            offset,
        )
        return [_match_row(row) for row in rows]

    async def find_command(self, match_id: str, command_id: str) -> CommandRecord | None:
        """The recorded first answer to this command id, or None."""
        key = match_uuid(match_id)
        if key is None:
            return None
        row = await self.pool.fetchrow(
            """SELECT command_id, seat, response, status_code, version, recorded_at
            FROM commands WHERE match_id = $1 AND command_id = $2""",
            key,
            command_id,
        )
        return None if row is None else CommandRecord(**dict(row))

    async def seat_for_token(self, match_id: str, token_hash: bytes) -> int | None:
        """The seat holding this token hash, or None; kept once found (a token never changes)."""
        key = (match_uuid(match_id), token_hash)
        seat = self.seats.get(key)
        if seat is None:
            seat = await self._value(
                "SELECT seat FROM seat_tokens WHERE match_id = $1 AND token_hash = $2",
                match_id,
                token_hash,
            )
            if seat is not None:
                self.seats.put(key, seat)
        return seat

    async def host_token_hash(self, match_id: str) -> bytes | None:
        """The host token's hash, or None."""
        return await self._value(
            "SELECT host_token_hash FROM matches WHERE match_id = $1", match_id
        )

    async def server_seed(self, match_id: str) -> bytes | None:
        """The secret server seed (publish it only once the match is finished), or None."""
        return await self._value("SELECT server_seed FROM matches WHERE match_id = $1", match_id)

    async def due_matches(self, *, bot_delay: float, limit: int = 100) -> list[str]:
        """Matches in play where a bot seat has waited or a turn clock ran out, soonest first;
        see ``is_due``."""
        rows = await self.pool.fetch(_DUE, bot_delay, limit)
        return [str(row["match_id"]) for row in rows]

    async def save_snapshot(
        self, match_id: str, version: int, fingerprint: str, state: bytes
    ) -> None:
        """Keep the fold of the first ``version`` events with that event's hash, unless newer."""
        key = _require_uuid(match_id)
        await self.pool.execute(_SAVE_SNAPSHOT, key, version, fingerprint, state)

    async def latest_snapshot(self, match_id: str) -> Snapshot | None:
        """The match's latest snapshot, or None."""
        key = match_uuid(match_id)
        row = None if key is None else await self.pool.fetchrow(_LATEST_SNAPSHOT, key)
        return None if row is None else Snapshot(**dict(row))

    async def finished_matches(
        self, filters: ExportFilter, *, events: bool = True
    ) -> AsyncIterator[FinishedMatch]:
        """Finished matches passing the filters, oldest finish first, read through a cursor."""
        query = _FINISHED_WITH_EVENTS if events else _FINISHED
        async with self.pool.acquire() as conn:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                cursor = conn.cursor(query, *_filter_args(filters), prefetch=EXPORT_PREFETCH)
                async for record in cursor:
                    yield _finished(record, events)

    async def count_finished(self, filters: ExportFilter) -> int:
        """How many finished matches pass the filters."""
        query = f"SELECT count(*) FROM matches WHERE {_FINISHED_WHERE}"
        count: int = await self.pool.fetchval(query, *_filter_args(filters))
        return count

    async def _value(self, query: str, match_id: str, *args: Any) -> Any:
        """One value looked up by match id, or None when there is none."""
        key = match_uuid(match_id)
        if key is None:
            return None
        return await self.pool.fetchval(query, key, *args)


def _require_uuid(match_id: str) -> uuid.UUID:
    """The match id as a UUID; a new match must have one."""
    key = match_uuid(match_id)
    if key is None:
        raise ValueError(f"match id {match_id!r} is not a UUID")
    return key


def _checked(key: uuid.UUID, expected: int, version: int | None, head: bytes | None) -> bytes:
    """The head hash of a match that is at the expected version; else the store's refusal."""
    if version is None or head is None:
        raise UnknownMatch(str(key))
    if version != expected:
        raise VersionConflict(version, expected)
    return head


def _unique_refusal(
    key: uuid.UUID, error: asyncpg.UniqueViolationError, command: CommandRecord | None
) -> StoreError:
    """What a unique key refusing the append means: a seen command id, a taken seat, a race."""
    constraint = getattr(error, "constraint_name", "") or ""
    if constraint.startswith("commands") and command is not None:
        return DuplicateCommand(str(key), command.command_id)
    if constraint.startswith("seat_tokens"):
        return StoreError(f"a seat of match {key} already has that seat or token")
    return StoreError(f"match {key} refused the append: {error}")


def _stored(match_id: str, version: int, event: NewEvent, at: datetime, hash: bytes) -> StoredEvent:
    """The stored form of an event just written."""
    return StoredEvent(
        match_id=match_id,
        version=version,
        type=event.type,
        data=event.data,
        metadata=event.metadata,
        recorded_at=at,
        hash=hash,
    )


def _match_row(row: asyncpg.Record) -> MatchRow:
    """A MatchRow from a database row."""
    values = dict(row)
    values["match_id"] = str(values["match_id"])
    return MatchRow(**values)


def _filter_args(filters: ExportFilter) -> tuple[Any, ...]:
    """The export query's parameters, in the order $1..$4."""
    return (filters.tournament, filters.game, filters.finished_after, filters.finished_before)


def _finished(record: asyncpg.Record, with_events: bool) -> FinishedMatch:
    """A FinishedMatch from one row of the export query."""
    values = dict(record)
    values["match_id"] = str(values["match_id"])
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
