"""The export of a finished match: one self-contained JSON document anyone can verify offline.

The format is described in docs/export-format.md; its JSON Schema (docs/export-format.schema.json)
is generated from the Structs below. Each event's ``data`` is embedded byte for byte as it was
hashed, so a verifier can recompute the hash chain from the document alone.
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
FORMAT_VERSION = 1
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


class Metadata(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Who caused an event; the first event of each command's batch carries the command."""

    seat: int | None
    command_id: str | None
    command: dict[str, Any] | None = None


class Event(msgspec.Struct, frozen=True, kw_only=True):
    """One stored event: ``data`` is its canonical JSON, verbatim, and ``hash`` chains it."""

    version: int
    type: str
    data: Annotated[msgspec.Raw, Meta(description="the canonical event object, byte for byte")]
    metadata: Metadata
    recorded_at: Time
    hash: Hex


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
    )
    return MatchExport(header=header, events=[export_event(e) for e in events])


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
    """The document as compact JSON (one NDJSON line, without the newline)."""
    return msgspec.json.encode(document)


def decode_export(text: bytes | str) -> MatchExport:
    """A document read back; ``data`` keeps the exact bytes found in the text."""
    return _decoder.decode(text)


def players(summary: Summary) -> list[Player]:
    """The seats in order, each with its name and its bot (None for a person)."""
    bots = summary.bots
    return [
        Player(seat=seat, name=name, bot=bots[seat] if seat < len(bots) else None)
        for seat, name in enumerate(summary.names)
    ]


CSV_COLUMNS = (
    "match_id",
    "game",
    "tournament",
    "seat",
    "name",
    "placement",
    "score",
    "finished_at",
    "head_hash",
    "bot",
)


def csv_rows(
    *,
    match_id: str,
    game: str,
    tournament: str | None,
    finished_at: datetime | None,
    head_hash: bytes,
    summary: Summary,
) -> list[list[Any]]:
    """One CSV row per seat of a finished match, in CSV_COLUMNS order."""
    result = summary.result
    if result is None:
        raise ValueError(f"match {match_id} is not finished")
    when = finished_at.isoformat() if finished_at else ""
    return [
        [
            match_id,
            game,
            tournament or "",
            player.seat,
            player.name,
            result.placements[player.seat],
            result.scores[player.seat],
            when,
            head_hash.hex(),
            player.bot or "",
        ]
        for player in players(summary)
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
