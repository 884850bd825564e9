"""The event store on Postgres: creating a match, appending to it, and one match's lookups.

Appends are optimistic: the caller names the version it decided on, and the store refuses when
another writer got there first. Everything one append changes (events, match row, seat token,
command record) lands in one transaction or not at all: service.store.append writes an append in
one statement. Every committed append is announced on the channel ``hearthlog`` as
``<match_id>:<version>`` (service.live.hub listens), just after its commit; pg_append says why the
announcement waits for the commit. Reads over many matches are in service.store.queries.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

import asyncpg
import msgspec

from domain.core.chain import GENESIS, link
from service.store import append as pg_append
from service.store import queries
from service.store.lru import Lru
from service.store.protocol import check_write, match_uuid
from service.store.records import (
    CHANNEL,
    Change,
    CommandRecord,
    DuplicateCommand,
    ExportFilter,
    FinishedMatch,
    HistoryChanged,
    MatchRow,
    NewEvent,
    NewMatch,
    StoredEvent,
    StoreError,
    UnknownMatch,
    VersionConflict,
)
from service.store.snapshots import Snapshot

_INSERT_MATCH = """
WITH match_row AS (
    INSERT INTO matches (match_id, game, rules_version, status, seats, practice, tournament,
        label, seed_commitment, server_seed, host_token_hash, summary, invite_hash, created_at)
    VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $9, $10, $11, $16, $17)
    RETURNING created_at
), head AS (
    INSERT INTO heads (match_id, version, head_hash, updated_at)
    SELECT $1, 1, $12, created_at FROM match_row
), first_event AS (
    INSERT INTO events (match_id, version, type, data, metadata, recorded_at, hash)
    SELECT $1, 1, $13, $14::json, $15, created_at, $12 FROM match_row
)
SELECT created_at FROM match_row
"""

# The hash comes from the event itself, so a snapshot is always paired with its history. The
# time is a parameter: Citus refuses now() in ON CONFLICT DO UPDATE (docs/scaling.md).
_SAVE_SNAPSHOT = """
INSERT INTO snapshots AS s (match_id, version, hash, fingerprint, state, checksum, taken_at)
SELECT e.match_id, e.version, e.hash, $3, $4, sha256(convert_to($3, 'UTF8') || e.hash || $4), $5
FROM events e WHERE e.match_id = $1 AND e.version = $2
ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, hash = excluded.hash,
    fingerprint = excluded.fingerprint, state = excluded.state, checksum = excluded.checksum,
    taken_at = excluded.taken_at
WHERE s.version < excluded.version OR s.fingerprint <> excluded.fingerprint
"""

_HAS_COMMAND = "SELECT count(*) > 0 FROM commands WHERE match_id = $1 AND command_id = $2"
_HAS_SEAT = """SELECT count(*) > 0 FROM seat_tokens WHERE match_id = $1
    AND (seat = $2 OR token_hash = $3)"""

_LATEST_SNAPSHOT = """SELECT version, hash, fingerprint, state, checksum FROM snapshots
    WHERE match_id = $1"""

# A match's events in a range of versions, bounded above even when the caller is not (by the
# largest version there can be): with "($3 IS NULL OR version <= $3)", or with no upper bound,
# Postgres planned afresh every read of a match's last changes (a custom plan, seeing how few
# rows follow the version, looked cheaper for good than the generic plan, which guessed a third
# of the match); a range of two parameters is guessed narrow, so the generic plan is kept
# (docs/benchmarks.md, issue #33 item 4).
_LOAD = """SELECT version, type, data::text AS data, metadata, recorded_at, hash FROM events
    WHERE match_id = $1 AND version > $2 AND version <= $3 ORDER BY version"""
_LAST = 2**31 - 1  # the largest int, the versions' type


def wall_clock() -> datetime:
    """The time now, in UTC (a server hands in its own clock instead)."""
    return datetime.now(UTC)


class PostgresStore:
    """The event store on Postgres, through an asyncpg pool (service.store.provisioning).

    Times are the store's ``clock`` (a server hands in its own: service.sources), sent with
    each statement rather than Postgres's now(), which a Citus cluster refuses in the places an
    append needs it; within a match they never go back (service.store.append)."""

    def __init__(self, pool: asyncpg.Pool, *, clock: Callable[[], datetime] = wall_clock,
                 ) -> None:
        self.pool, self.clock = pool, clock
        self.heads = pg_append.Heads()
        self.seats = Lru(20_000)
        self.announcer = pg_append.Announcer(pool, CHANNEL)
        self.batches = pg_append.Batches(pool)

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
                first.metadata, new.invite_hash, self.clock())
        except asyncpg.UniqueViolationError as error:
            raise StoreError(f"match {key} already exists") from error
        self.heads.put(key, 1, head, row)
        self.announcer.announce(f"{key}:1")
        return _stored(str(key), 1, first, created_at, head)

    async def append(
        self, match_id: str, expected: int, events: list[NewEvent], change: Change
    ) -> list[StoredEvent]:
        """Append at ``expected`` with everything the change says goes with it, or write
        nothing."""
        key, canonical = _keys(match_id)
        if key is None:
            raise UnknownMatch(match_id)
        check_write(change.status, events)
        now, hashes = await self._append_once(key, expected, events, change)
        if hashes:
            self.announcer.announce(f"{canonical}:{expected + len(events)}")
        return [
            _stored(canonical, expected + n, e, now, h)
            for n, (e, h) in enumerate(zip(events, hashes, strict=True), start=1)
        ]

    async def _append_once(
        self, key: uuid.UUID, expected: int, events: list[NewEvent], change: Change
    ) -> tuple[datetime, list[bytes]]:
        """One statement chained from the known head (read first when none is known)."""
        row = pg_append.row_of(change)
        head = self.heads.get(key, expected)
        if head is None:
            head = _checked(key, expected, *await pg_append.read_head(self.pool, key))
        try:
            changed = None if self.heads.row(key, expected, head) == row else row
            now, hashes = await pg_append.append_once(
                self.batches, key, expected, head, events, change, changed, self.clock())
        except pg_append.Refused as refused:
            raise self._refused(key, expected, refused) from None
        except (asyncpg.UniqueViolationError, asyncpg.InternalServerError) as error:
            raise await self._refusal(key, error, change) from error
        after = hashes[-1] if hashes else head
        self.heads.put(key, expected + len(events), after, row)
        return now, hashes

    def _refused(self, key: uuid.UUID, expected: int, refused: pg_append.Refused) -> StoreError:
        """Why an append hit no head: no such match, another version, or the version expected
        with another head than the one chained from. Then this process's history of the match
        is not the database's (a failover lost what it knew, and other events took those
        versions): what was decided on it is not written (never re-chained onto the other), and
        the caller reloads."""
        if refused.version is None or refused.head is None:
            return UnknownMatch(str(key))
        if refused.version != expected:
            return VersionConflict(refused.version, expected)
        self.heads.put(key, expected, refused.head)
        return HistoryChanged(expected)

    async def _refusal(self, key: uuid.UUID, error: asyncpg.PostgresError, change: Change,
                       ) -> Exception:
        """What the database refusing an append means, read from what it holds rather than
        from the error's fields (a Citus cluster passes neither the constraint's name nor, for
        an append's statement, the unique violation's code): a command id seen before, a seat
        or token taken, else the error itself."""
        command, token = change.command, change.seat_token
        if command is not None and await self.pool.fetchval(_HAS_COMMAND, key, command.command_id):
            return DuplicateCommand(str(key), command.command_id)
        if token is not None and await self.pool.fetchval(_HAS_SEAT, key, *token):
            return StoreError(f"a seat of match {key} already has that seat or token")
        if isinstance(error, asyncpg.UniqueViolationError):
            return StoreError(f"match {key} refused the append: {error}")
        return error

    async def load(
        self, match_id: str, after: int = 0, upto: int | None = None
    ) -> list[StoredEvent]:
        """The match's events with after < version <= upto, in version order."""
        key = match_uuid(match_id)
        if key is None:
            return []
        rows = await self.pool.fetch(_LOAD, key, after, _LAST if upto is None else upto)
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
            f"SELECT {queries.MATCH_COLUMNS} FROM {queries.MATCHES} WHERE match_id = $1", key
        )
        if row is None:
            return None
        self.heads.put(key, row["version"], row["head_hash"])
        return queries.match_row(row)

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
        return await queries.list_matches(self.pool, filters, limit, offset)

    async def find_command(self, match_id: str, command_id: str) -> CommandRecord | None:
        """The recorded first answer to this command id, with the command it answered, or None."""
        key = match_uuid(match_id)
        if key is None:
            return None
        row = await self.pool.fetchrow(
            """SELECT command_id, seat, response, status_code, version, recorded_at,
                (SELECT e.metadata->'command' FROM events e
                 WHERE e.match_id = $1 AND e.version <= c.version
                   AND e.metadata->>'command_id' = c.command_id AND e.metadata ? 'command'
                 ORDER BY e.version DESC LIMIT 1) AS command
            FROM commands c WHERE match_id = $1 AND command_id = $2""",
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

    async def invite_hash(self, match_id: str) -> bytes | None:
        """A private table's invite hash, or None (no such match, or not private)."""
        return await self._value("SELECT invite_hash FROM matches WHERE match_id = $1", match_id)

    async def host_token_hash(self, match_id: str) -> bytes | None:
        """The host token's hash, or None."""
        return await self._value(
            "SELECT host_token_hash FROM matches WHERE match_id = $1", match_id
        )

    async def seat_token_hash(self, match_id: str, seat: int) -> bytes | None:
        """The stored hash of a seat's token (None: no such seat, or a bot's), to check tickets."""
        return await self._value(
            "SELECT token_hash FROM seat_tokens WHERE match_id = $1 AND seat = $2", match_id, seat
        )

    async def server_seed(self, match_id: str) -> bytes | None:
        """The secret server seed (publish it only once the match is finished), or None."""
        return await self._value("SELECT server_seed FROM matches WHERE match_id = $1", match_id)

    async def due_matches(self, *, bot_delay: float, limit: int = 100) -> list[str]:
        """Matches in play where a bot is to act or a turn clock ran out; see ``is_due``."""
        return await queries.due_matches(self.pool, bot_delay, limit, self.clock())

    async def save_snapshot(
        self, match_id: str, version: int, fingerprint: str, state: bytes
    ) -> None:
        """Keep the fold of the first ``version`` events with that event's hash, unless newer."""
        key = _require_uuid(match_id)
        await self.pool.execute(_SAVE_SNAPSHOT, key, version, fingerprint, state, self.clock())

    async def latest_snapshot(self, match_id: str) -> Snapshot | None:
        """The match's latest snapshot, or None."""
        key = match_uuid(match_id)
        row = None if key is None else await self.pool.fetchrow(_LATEST_SNAPSHOT, key)
        return None if row is None else Snapshot(**dict(row))

    async def finished_matches(
        self, filters: ExportFilter, *, events: bool = True
    ) -> AsyncIterator[FinishedMatch]:
        """Finished matches passing the filters, oldest finish first, read through a cursor."""
        async for finished in queries.finished_matches(self.pool, filters, events):
            yield finished

    async def count_finished(self, filters: ExportFilter) -> int:
        """How many finished matches pass the filters."""
        return await queries.count_finished(self.pool, filters)

    async def _value(self, query: str, match_id: str, *args: Any) -> Any:
        """One value looked up by match id, or None when there is none."""
        key = match_uuid(match_id)
        if key is None:
            return None
        return await self.pool.fetchval(query, key, *args)


@functools.lru_cache(maxsize=20_000)
def _keys(match_id: str) -> tuple[uuid.UUID | None, str]:
    """The match id as a UUID and in its canonical spelling, worked out once per id (a UUID's
    str() runs in Python, on every append otherwise)."""
    key = match_uuid(match_id)
    return key, match_id if key is None else str(key)


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
