"""The event store's records and errors: what goes in, what comes out, why a write is refused."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

import msgspec

from projections.summary import Summary

Status = Literal["lobby", "playing", "finished"]
STATUSES: tuple[Status, ...] = ("lobby", "playing", "finished")
CHANNEL = "hearthlog"  # Postgres announces each committed append here as <match_id>:<version>


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
    invite_hash: bytes | None = None  # a private table's invite (SHA-256), else None
    summary: Summary


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as stored; ``data`` is exactly the bytes appended (and hashed)."""

    match_id: str
    version: int
    type: str
    data: bytes
    metadata: dict[str, Any]
    recorded_at: datetime
    hash: bytes


class OwedSince(msgspec.Struct, frozen=True, kw_only=True):
    """For the clock's sweep: the match version at which the seat owing its move the longest
    began to owe it (None: nobody owes, or the match has no clock), and the same among bot seats.
    The store turns each into that event's recorded time (this append's own, for a new one)."""

    clock: int | None = None
    bots: int | None = None


class Change(msgspec.Struct, frozen=True, kw_only=True):
    """What an append changes beside the events, all in the same transaction: the match row's
    read model (its status, summary and seats taken; finished once the status is), the seat token
    of a seat just taken, the first answer to the command, and who owes a move since when."""

    status: Status
    summary: Summary
    seats_taken: int | None = None  # None: as the row has it
    seat_token: tuple[int, bytes] | None = None  # (seat, SHA-256 of its token)
    command: CommandRecord | None = None
    owed: OwedSince | None = None

    @property
    def finished(self) -> bool:
        """Whether this append ends the match (its finish time is then recorded)."""
        return self.status == "finished"


class MatchRow(msgspec.Struct, frozen=True, kw_only=True):
    """A match's row without its secrets (server seed, host token hash)."""

    match_id: str
    game: str
    rules_version: str
    status: Status
    seats: int
    seats_taken: int
    practice: bool
    tournament: str | None
    label: str | None
    version: int
    head_hash: bytes
    seed_commitment: str
    summary: Summary
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    owed_since: datetime | None = None  # see OwedSince: when the longest-owing seat began to owe
    bot_owed_since: datetime | None = None  # ... and the longest-owing bot seat
    private: bool = False  # a seat is taken only with the match's invite


class CommandRecord(msgspec.Struct, frozen=True, kw_only=True):
    """The first answer to a command id, kept so a retry gets the same bytes."""

    command_id: str
    seat: int | None
    response: bytes
    status_code: int
    version: int
    recorded_at: datetime | None = None
    command: Any = None  # read back: the command as its first event records it (metadata)


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


class HistoryChanged(VersionConflict):
    """The match is at the version expected, but not along the events this process chained from:
    after a failover the database may hold other events under versions a process saw (an
    asynchronous standby promoted, then played on). What was decided on the old history is not
    written; reload and decide again."""

    def __init__(self, version: int) -> None:
        StoreError.__init__(self, f"the match's events up to version {version} are not the ones "
                            "this process knew")
        self.current = self.expected = version


class DuplicateCommand(StoreError):
    """This command id was already recorded for the match; nothing was written."""

    def __init__(self, match_id: str, command_id: str) -> None:
        super().__init__(f"command {command_id} was already applied to match {match_id}")
        self.match_id = match_id
        self.command_id = command_id
