"""An in-memory event store for fast tests; it keeps exactly the contract of PostgresStore."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from domain.core.chain import GENESIS, chain, link
from projections.summary import Summary
from service.store import (
    Change,
    CommandRecord,
    DuplicateCommand,
    ExportFilter,
    FinishedMatch,
    MatchRow,
    NewEvent,
    NewMatch,
    OwedSince,
    StoredEvent,
    StoreError,
    UnknownMatch,
    VersionConflict,
    check_write,
    due_at,
    exportable,
    is_due,
    match_uuid,
)
from service.store.snapshots import Snapshot, checksum


def _wall_clock() -> datetime:
    """The time now, in UTC (a server's own store keeps the wall clock; tests hand in theirs)."""
    return datetime.now(UTC)


@dataclass
class _Match:
    """Everything stored about one match."""

    row: MatchRow
    server_seed: bytes
    host_token_hash: bytes | None
    invite_hash: bytes | None = None
    events: list[StoredEvent] = field(default_factory=list)
    tokens: dict[int, bytes] = field(default_factory=dict)
    commands: dict[str, CommandRecord] = field(default_factory=dict)
    snapshot: Snapshot | None = None


class MemoryStore:
    """Matches in a dict; each method runs without awaiting, so it is atomic under asyncio."""

    def __init__(self, *, clock: Callable[[], datetime] = _wall_clock) -> None:
        self._matches: dict[str, _Match] = {}
        self.clock = clock  # when events are recorded and what is due (service.sources.Clock)
        self._last_time = datetime.fromtimestamp(0, UTC)

    def _now(self) -> datetime:
        """The clock's time, made strictly increasing so "newest first" never ties."""
        self._last_time = max(self.clock(), self._last_time + timedelta(microseconds=1))
        return self._last_time

    def _find(self, match_id: str) -> _Match | None:
        """The stored match, or None (ids are compared as UUIDs, like Postgres does)."""
        key = match_uuid(match_id)
        return None if key is None else self._matches.get(str(key))

    async def create_match(self, new: NewMatch) -> StoredEvent:
        """Store the match row and its first event."""
        key = match_uuid(new.match_id)
        if key is None:
            raise ValueError(f"match id {new.match_id!r} is not a UUID")
        if str(key) in self._matches:
            raise StoreError(f"match {key} already exists")
        check_write("lobby", [new.first])
        now = self._now()
        head = link(GENESIS, new.first.data)
        row = MatchRow(
            match_id=str(key),
            game=new.game,
            rules_version=new.rules_version,
            status="lobby",
            seats=new.seats,
            seats_taken=0,
            practice=new.practice,
            tournament=new.tournament,
            label=new.label,
            version=1,
            head_hash=head,
            seed_commitment=new.seed_commitment,
            summary=_stored_summary(new.summary),
            created_at=now,
            updated_at=now,
            finished_at=None,
            private=new.invite_hash is not None,
        )
        event = _stored(str(key), 1, new.first, now, head)
        self._matches[str(key)] = _Match(row, new.server_seed, new.host_token_hash, new.invite_hash,
                                            [event])
        return event

    async def append(
        self, match_id: str, expected: int, events: list[NewEvent], change: Change
    ) -> list[StoredEvent]:
        """Check everything first, then change everything, so nothing partial lands."""
        match = self._find(match_id)
        if match is None:
            raise UnknownMatch(match_id)
        check_write(change.status, events)
        _check_unique(match, expected, change.seat_token, change.command)
        now = self._now()
        hashes = chain([event.data for event in events], match.row.head_hash)
        new = [
            _stored(match.row.match_id, expected + n, event, now, h)
            for n, (event, h) in enumerate(zip(events, hashes, strict=True), start=1)
        ]
        owed = change.owed or OwedSince()
        since = [_since(match, v, expected, now) for v in (owed.clock, owed.bots)]
        match.events.extend(new)
        match.row = msgspec.structs.replace(
            match.row,
            owed_since=since[0],
            bot_owed_since=since[1],
            version=expected + len(events),
            head_hash=hashes[-1] if hashes else match.row.head_hash,
            status=change.status,
            summary=_stored_summary(change.summary),
            updated_at=now,
            seats_taken=match.row.seats_taken if change.seats_taken is None else change.seats_taken,
            finished_at=match.row.finished_at or (now if change.finished else None),
        )
        if change.seat_token is not None:
            seat, token_hash = change.seat_token
            match.tokens[seat] = token_hash
        if change.command is not None:
            command = change.command
            match.commands[command.command_id] = msgspec.structs.replace(command, recorded_at=now)
        return new

    async def load(
        self, match_id: str, after: int = 0, upto: int | None = None
    ) -> list[StoredEvent]:
        """The match's events with after < version <= upto, in version order."""
        match = self._find(match_id)
        if match is None:
            return []
        return [
            e for e in match.events if e.version > after and (upto is None or e.version <= upto)
        ]

    async def get_match(self, match_id: str) -> MatchRow | None:
        """The match's row, or None."""
        match = self._find(match_id)
        return None if match is None else match.row

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
        wanted = {"game": game, "status": status, "tournament": tournament, "practice": practice}
        given = {name: value for name, value in wanted.items() if value is not None}
        rows = [
            m.row
            for m in self._matches.values()
            if all(getattr(m.row, name) == value for name, value in given.items())
        ]
        rows.sort(key=lambda row: (row.created_at, row.match_id), reverse=True)
        return rows[offset : offset + limit]

    async def find_command(self, match_id: str, command_id: str) -> CommandRecord | None:
        """The recorded first answer to this command id, with the command it answered, or None."""
        match = self._find(match_id)
        record = None if match is None else match.commands.get(command_id)
        if match is None or record is None:
            return None
        first = [e.metadata["command"] for e in match.events if e.version <= record.version
                 and e.metadata.get("command_id") == command_id and "command" in e.metadata]
        return msgspec.structs.replace(record, command=_copy(first[-1]) if first else None)

    async def seat_for_token(self, match_id: str, token_hash: bytes) -> int | None:
        """The seat holding this token hash, or None."""
        match = self._find(match_id)
        tokens = {} if match is None else match.tokens
        return next((seat for seat, held in tokens.items() if held == token_hash), None)

    async def seat_token_hash(self, match_id: str, seat: int) -> bytes | None:
        """The stored hash of a seat's token (None: no such seat, or a bot's)."""
        match = self._find(match_id)
        return None if match is None else match.tokens.get(seat)

    async def invite_hash(self, match_id: str) -> bytes | None:
        """A private table's invite hash, or None (no such match, or not private)."""
        match = self._find(match_id)
        return None if match is None else match.invite_hash

    async def host_token_hash(self, match_id: str) -> bytes | None:
        """The host token's hash, or None."""
        match = self._find(match_id)
        return None if match is None else match.host_token_hash

    async def server_seed(self, match_id: str) -> bytes | None:
        """The secret server seed (publish it only once the match is finished), or None."""
        match = self._find(match_id)
        return None if match is None else match.server_seed

    async def finished_matches(
        self, filters: ExportFilter, *, events: bool = True
    ) -> AsyncIterator[FinishedMatch]:
        """Finished matches passing the filters, oldest finish first."""
        chosen = [m for m in self._matches.values() if exportable(m.row, filters)]
        chosen.sort(key=lambda m: (m.row.finished_at, m.row.match_id))
        for match in chosen:
            held = list(match.events) if events else []
            yield FinishedMatch(row=match.row, server_seed=match.server_seed, events=held)

    async def count_finished(self, filters: ExportFilter) -> int:
        """How many finished matches pass the filters."""
        return sum(exportable(m.row, filters) for m in self._matches.values())

    async def due_matches(self, *, bot_delay: float, limit: int = 100) -> list[str]:
        """Matches in play where a bot is to act or a turn clock ran out; see ``is_due``."""
        now = self.clock()
        rows = [m.row for m in self._matches.values() if is_due(m.row, bot_delay, now)]
        rows.sort(key=lambda row: due_at(row, bot_delay) or now)
        return [row.match_id for row in rows][:limit]

    async def save_snapshot(
        self, match_id: str, version: int, fingerprint: str, state: bytes
    ) -> None:
        """Keep the fold of the first ``version`` events with that event's hash, unless newer."""
        found = self._find(match_id)
        if found is None or not 0 < version <= len(found.events):
            return
        held = found.snapshot
        if held is None or held.version < version or held.fingerprint != fingerprint:
            hash_ = found.events[version - 1].hash
            found.snapshot = Snapshot(version=version, hash=hash_, fingerprint=fingerprint,
                                      state=state, checksum=checksum(fingerprint, hash_, state))

    async def latest_snapshot(self, match_id: str) -> Snapshot | None:
        """The match's latest snapshot, or None."""
        found = self._find(match_id)
        return None if found is None else found.snapshot


def _check_unique(
    match: _Match,
    expected: int,
    seat_token: tuple[int, bytes] | None,
    command: CommandRecord | None,
) -> None:
    """The checks Postgres's keys make (version, seat token, command id), before any change."""
    if match.row.version != expected:
        raise VersionConflict(match.row.version, expected)
    if seat_token is not None:
        seat, token_hash = seat_token
        if seat in match.tokens or token_hash in match.tokens.values():
            raise StoreError(f"seat {seat} of match {match.row.match_id} already has a token")
    if command is not None and command.command_id in match.commands:
        raise DuplicateCommand(match.row.match_id, command.command_id)


def _since(match: _Match, version: int | None, expected: int, now: datetime) -> datetime | None:
    """When a seat began to owe at ``version``: now for a version being written, else the recorded
    time of that earlier event (as the Postgres statement does)."""
    if version is None:
        return None
    return now if version > expected else match.events[version - 1].recorded_at


def _stored_summary(summary: Summary) -> Summary:
    """The summary as a JSON round trip gives it back, as the Postgres store's does."""
    return msgspec.json.decode(msgspec.json.encode(summary), type=Summary)


def _copy(value: dict[str, Any]) -> dict[str, Any]:
    """A deep copy through JSON, as a jsonb round trip would make."""
    copied: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(value))
    return copied


def _stored(match_id: str, version: int, event: NewEvent, at: datetime, hash: bytes) -> StoredEvent:
    """The stored form of an appended event, its metadata copied."""
    return StoredEvent(
        match_id=match_id,
        version=version,
        type=event.type,
        data=event.data,
        metadata=_copy(event.metadata),
        recorded_at=at,
        hash=hash,
    )
