"""The event store: its records, its errors, its contract, and the Postgres implementation.

A match is one stream of events keyed by (match_id, version). ``records`` holds what goes in and
out, ``protocol`` the EventStore contract, by job (EventLog, MatchRows, Secrets, Snapshots), that
``PostgresStore`` (``postgres``, reads over many matches in ``queries``) and
``service.store.memory.MemoryStore`` both keep (tests/store/contract.py).
"""

from service.store.postgres import PostgresStore
from service.store.protocol import (
    EventLog,
    EventStore,
    MatchRows,
    Secrets,
    Snapshots,
    check_write,
    due_at,
    exportable,
    is_due,
    match_uuid,
)
from service.store.records import (
    CHANNEL,
    STATUSES,
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
)

__all__ = [
    "CHANNEL",
    "STATUSES",
    "Change",
    "CommandRecord",
    "DuplicateCommand",
    "EventLog",
    "EventStore",
    "ExportFilter",
    "FinishedMatch",
    "MatchRow",
    "MatchRows",
    "NewEvent",
    "NewMatch",
    "OwedSince",
    "PostgresStore",
    "Secrets",
    "Snapshots",
    "StoreError",
    "StoredEvent",
    "UnknownMatch",
    "VersionConflict",
    "check_write",
    "due_at",
    "exportable",
    "is_due",
    "match_uuid",
]
