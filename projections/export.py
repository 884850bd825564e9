"""The export of a finished match: one self-contained JSON document anyone can verify offline.

The format is described in docs/export-format.md; its JSON Schema (docs/export-format.schema.json)
is generated from the Structs below. Each event's ``data`` is written as a JSON string holding its
canonical bytes exactly as they were hashed (format 1 embedded them as an object; both are read),
so a verifier can recompute the hash chain from the document alone, and every line has one shape
that table tools (polars, duckdb) read. The tables of many matches (a row per seat, a row per
event) are in projections/tables.py.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Final, Literal, Protocol

import msgspec
from msgspec import Meta

from domain.core.match import MatchCreated
from projections.summary import Summary

FORMAT: Final = "hearthlog-match-export"
FORMAT_VERSION = 2
READABLE_VERSIONS: Final = (1, 2)  # format 1: ``data`` and ``command`` embedded as objects
# The pattern is published in the schema but not checked on decoding (a regex per hash halved the
# verifier's reading speed); a value that is not hex fails verification, which compares it.
Hex = Annotated[
    str, Meta(description="lowercase hex", extra_json_schema={"pattern": "^[0-9a-f]*$"})
]
Time = Annotated[datetime, Meta(extra_json_schema={"format": "date-time"})]


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """A seat, the name its player took, and the server-side bot playing it, if any."""

    seat: int
    name: str
    bot: str | None = None


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """How the match ended; lists are indexed by seat."""

    winners: list[int]
    scores: list[int]
    placements: list[int]


class Header(msgspec.Struct, frozen=True, kw_only=True):
    """Everything about the match that is not an event, seeds included (it is finished)."""

    format: Literal["hearthlog-match-export"]
    format_version: int
    match_id: str
    game: str
    rules_version: str
    options: dict[str, Any]
    seats: int
    players: list[Player]
    practice: bool
    tournament: str | None
    label: str | None
    created_at: Time
    finished_at: Time | None
    result: Result | None
    seed_commitment: Hex
    server_seed: Hex
    client_seeds: list[str | None]
    version: Annotated[int, Meta(description="the number of events")]
    head_hash: Hex
    started_at: Annotated[Time | None, Meta(
        description="when play began (the match_started event); null if it never did")] = None
    moves: Annotated[int, Meta(
        description="commands played at the table: the seats' own, concessions and time-outs")] = 0


_TEXT = msgspec.json.Decoder(str)
_OBJECT = msgspec.json.Decoder(dict[str, Any])


class Metadata(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Who caused an event; the first event of each command's batch carries the command (written
    as JSON text, read back as an object)."""

    seat: int | None
    command_id: str | None
    command: Annotated[dict[str, Any] | str | None, Meta(
        description="the command as JSON text (an object in format 1)")] = None

    def __post_init__(self) -> None:
        """A command read as JSON text is kept as the object it holds."""
        if isinstance(self.command, str):
            msgspec.structs.force_setattr(self, "command", _OBJECT.decode(self.command))


class Event(msgspec.Struct, frozen=True, kw_only=True):
    """One stored event: ``data`` is its canonical JSON, verbatim, and ``hash`` chains it.

    Written as a JSON string of those bytes; read back (from a string, or format 1's object)
    ``data`` holds the bytes themselves."""

    version: int
    type: str
    data: Annotated[msgspec.Raw, Meta(
        description="the canonical event object's bytes, as a JSON string (an object in format 1)",
        extra_json_schema={"type": "string"})]
    metadata: Metadata
    recorded_at: Time
    hash: Hex

    def __post_init__(self) -> None:
        """Data read as a JSON string is kept as the canonical bytes it holds."""
        if bytes(memoryview(self.data)[:1]) == b'"':
            text = _TEXT.decode(self.data)
            msgspec.structs.force_setattr(self, "data", msgspec.Raw(text.encode()))


class MatchExport(msgspec.Struct, frozen=True, kw_only=True):
    """A finished match: its header and every event in version order."""

    header: Header
    events: list[Event]


class Recorded(Protocol):
    """What the builder needs of a stored event (service.store.StoredEvent fits): read-only,
    so a frozen record satisfies it."""

    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def data(self) -> bytes: ...
    @property
    def metadata(self) -> dict[str, Any]: ...
    @property
    def recorded_at(self) -> datetime: ...
    @property
    def hash(self) -> bytes: ...


def build_export(
    *,
    match_id: str,
    created_at: datetime,
    finished_at: datetime | None,
    server_seed: bytes,
    summary: Summary,
    events: Sequence[Recorded],
) -> MatchExport:
    """The export of a finished match from its stored events and summary (names, result, seeds)."""
    if summary.result is None or summary.client_seeds is None:
        raise ValueError(f"match {match_id} is not finished; its seed is still secret")
    created = msgspec.json.decode(events[0].data, type=MatchCreated)
    exported = [export_event(e) for e in events]
    started = next((e for e in exported if e.type == STARTED), None)
    header = Header(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        match_id=match_id,
        game=created.game,
        rules_version=created.rules_version,
        options=created.options,
        seats=created.seats,
        players=players(summary),
        practice=created.practice,
        tournament=created.tournament,
        label=created.label,
        created_at=created_at,
        finished_at=finished_at,
        result=msgspec.convert(summary.result, Result, from_attributes=True),
        seed_commitment=created.seed_commitment,
        server_seed=server_seed.hex(),
        client_seeds=list(summary.client_seeds),
        version=len(events),
        head_hash=events[-1].hash.hex(),
        started_at=started.recorded_at if started else None,
        moves=moves(exported, started.version if started else len(exported)),
    )
    return MatchExport(header=header, events=exported)


STARTED: Final = "match_started"
LOBBY_COMMANDS: Final = frozenset({"join_seat", "start_match"})


def moves(events: Sequence[Event], started: int) -> int:
    """Commands played at the table after the start: every first event of a batch after it."""
    played = [e.metadata.command for e in events if e.version > started]
    return len([c for c in played if isinstance(c, dict) and c.get("type") not in LOBBY_COMMANDS])


def export_event(event: Recorded) -> Event:
    """One stored event as exported."""
    return Event(
        version=event.version,
        type=event.type,
        data=msgspec.Raw(event.data),
        metadata=msgspec.convert(event.metadata, Metadata),
        recorded_at=event.recorded_at,
        hash=event.hash.hex(),
    )


_decoder = msgspec.json.Decoder(MatchExport)


def encode_export(document: MatchExport) -> bytes:
    """The document as compact JSON (one NDJSON line, without the newline): each event's data
    and command written as JSON text, so every line has the same shape whatever the game."""
    return msgspec.json.encode(_Written(
        header=document.header, events=[_written(event) for event in document.events]))


class _WrittenMetadata(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Metadata as written: the command as JSON text."""

    seat: int | None
    command_id: str | None
    command: str | None = None


class _WrittenEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as written: its canonical bytes as a JSON string."""

    version: int
    type: str
    data: str
    metadata: _WrittenMetadata
    recorded_at: datetime
    hash: str


class _Written(msgspec.Struct, frozen=True, kw_only=True):
    """A document as written (MatchExport's fields, in its order)."""

    header: Header
    events: list[_WrittenEvent]


def _written(event: Event) -> _WrittenEvent:
    """The event as written: its canonical bytes and its command as JSON strings."""
    meta, command = event.metadata, event.metadata.command
    return _WrittenEvent(
        version=event.version, type=event.type, data=bytes(event.data).decode(),
        metadata=_WrittenMetadata(
            seat=meta.seat, command_id=meta.command_id,
            command=None if command is None else msgspec.json.encode(command).decode()),
        recorded_at=event.recorded_at, hash=event.hash,
    )


def decode_export(text: bytes | str) -> MatchExport:
    """A document read back (format 1 or 2); ``data`` keeps the exact bytes that were hashed."""
    return _decoder.decode(text)


def players(summary: Summary) -> list[Player]:
    """The seats in order, each with its name and its bot (None for a person)."""
    bots = summary.bots
    return [
        Player(seat=seat, name=name, bot=bots[seat] if seat < len(bots) else None)
        for seat, name in enumerate(summary.names)
    ]


def schema() -> dict[str, Any]:
    """The JSON Schema of one export document (committed as docs/export-format.schema.json)."""
    generated = msgspec.json.schema(MatchExport)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Hearthlog match export",
        "description": f"{FORMAT} format version {FORMAT_VERSION}; see docs/export-format.md",
        **generated,
    }


def schema_text() -> str:
    """The schema as stable, indented JSON with a final newline."""
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(schema_text(), end="")
