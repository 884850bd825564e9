"""The event store: its records, its errors, its contract, and the Postgres implementation.

A match is one stream of events keyed by (match_id, version). ``records`` holds what goes in and
out, ``protocol`` the EventStore contract that ``PostgresStore`` (``postgres``, reads over many
matches in ``queries``) and ``service.store.memory.MemoryStore`` both keep.
"""

from service.store.postgres import PostgresStore
from service.store.protocol import (
    EventStore,
    check_write,
    due_at,
    exportable,
    is_due,
    match_uuid,
)
from service.store.records import (
    CHANNEL,
    STATUSES,
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
    "CommandRecord",
    "DuplicateCommand",
    "EventStore",
    "ExportFilter",
    "FinishedMatch",
    "MatchRow",
    "NewEvent",
    "NewMatch",
    "OwedSince",
    "PostgresStore",
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
