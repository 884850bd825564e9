"""The EventStore protocol every backend keeps, and the checks the backends share."""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Protocol

import msgspec

from service.store.records import (
    STATUSES,
    Change,
    CommandRecord,
    ExportFilter,
    FinishedMatch,
    MatchRow,
    NewEvent,
    NewMatch,
    StoredEvent,
    StoreError,
)
from service.store.snapshots import Snapshot


class EventLog(Protocol):
    """Each match's events, in order, appended at an expected version with their ``Change``."""

    async def create_match(self, new: NewMatch) -> StoredEvent: ...

    async def append(
        self, match_id: str, expected: int, events: list[NewEvent], change: Change
    ) -> list[StoredEvent]: ...

    async def load(
        self, match_id: str, after: int = 0, upto: int | None = None
    ) -> list[StoredEvent]: ...

    async def find_command(self, match_id: str, command_id: str) -> CommandRecord | None: ...


class MatchRows(Protocol):
    """The matches' rows (the read model an append keeps): one, a page, the finished, the due."""

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

    def finished_matches(
        self, filters: ExportFilter, *, events: bool = True
    ) -> AsyncIterator[FinishedMatch]: ...

    async def count_finished(self, filters: ExportFilter) -> int: ...

    async def due_matches(self, *, bot_delay: float, limit: int = 100) -> list[str]: ...


class Secrets(Protocol):
    """What is never shown: the server seed (until the match is over) and the tokens' hashes."""

    async def server_seed(self, match_id: str) -> bytes | None: ...

    async def seat_for_token(self, match_id: str, token_hash: bytes) -> int | None: ...

    async def host_token_hash(self, match_id: str) -> bytes | None: ...

    async def seat_token_hash(self, match_id: str, seat: int) -> bytes | None: ...

    async def invite_hash(self, match_id: str) -> bytes | None: ...


class Snapshots(Protocol):
    """Folded states kept as a cache of their events (service.store.snapshots)."""

    async def save_snapshot(
        self, match_id: str, version: int, fingerprint: str, state: bytes
    ) -> None: ...

    async def latest_snapshot(self, match_id: str) -> Snapshot | None: ...


class EventStore(EventLog, MatchRows, Secrets, Snapshots, Protocol):
    """Everything the application needs from a store, by job; every backend (memory, Postgres)
    keeps it all and passes the same contract suite (tests/store/contract.py)."""


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




def due_at(row: MatchRow, bot_delay: float) -> datetime | None:
    """When the server next owes a move in play: the longest-owing bot seat ``bot_delay`` after
    it began to owe, or the longest-owing seat's turn clock running out; None: never."""
    if row.status != "playing":
        return None
    clock = row.summary.turn_seconds
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
