"""The tournament bundle: one NDJSON stream anyone can verify offline (docs/tournaments.md).

Line order: the header; then for each round its ``round`` line followed by one ``match`` line
per table in table order; then the ``standings`` line last. The JSON Schema of one line
(docs/tournament-bundle.schema.json) is generated from the Structs below.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import msgspec

from domain.tournament import Action, Entrant, Pairing, Settings, Standing, rows
from projections.export import Hex, MatchExport, Time

FORMAT_VERSION = 2  # 2: the id binds the settings; the organizer's actions


class BundleTable(msgspec.Struct, frozen=True, kw_only=True):
    """A table of a round: entrant numbers in seat order and the match played there."""

    table: int
    seats: list[int]
    match_id: str


class TournamentLine(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind",
                     tag="tournament"):
    """The header: settings, the seed (revealed, it is finished) and its commitment, entrants,
    and the organizer's (and the server's) actions in the order recorded."""

    format_version: int
    tournament_id: str
    name: str
    settings: Settings
    seed_commitment: Hex
    seed: Hex
    entrants: list[Entrant]
    created_at: Time
    finished_at: Time | None
    actions: list[Action] = []


class RoundLine(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="round"):
    """One round's pairing: its tables (each with its match id) and its byes."""

    round: int
    tables: list[BundleTable]
    byes: list[int]
    half_byes: list[int] = []  # requested byes, worth a draw


class MatchLine(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="match"):
    """One table's match: its export document exactly as projections/export.py writes it."""

    round: int
    table: int
    export: MatchExport


class StandingRow(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the standings; exact values as decimal strings."""

    rank: int
    entrant: int
    name: str
    points: str
    tiebreaks: dict[str, str]
    played: int
    byes: int
    withdrawn: bool


class StandingsLine(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind",
                    tag="standings"):
    """The last line: the standings after the last round."""

    after_round: int
    standings: list[StandingRow]


Line = TournamentLine | RoundLine | MatchLine | StandingsLine
_decoder = msgspec.json.Decoder(Line)


def decode_line(text: bytes | str) -> Line:
    """One bundle line read back (a match's event data keeps its exact bytes)."""
    return _decoder.decode(text)


def encode_header(
    *,
    tournament_id: str,
    name: str,
    settings: Settings,
    seed: bytes,
    seed_commitment: str,
    entrants: list[Entrant],
    created_at: datetime,
    finished_at: datetime | None,
    actions: list[Action] | None = None,
) -> bytes:
    """The header line, newline included."""
    line = TournamentLine(
        format_version=FORMAT_VERSION,
        tournament_id=tournament_id,
        name=name,
        settings=settings,
        seed_commitment=seed_commitment,
        seed=seed.hex(),
        entrants=entrants,
        created_at=created_at,
        finished_at=finished_at,
        actions=actions or [],
    )
    return msgspec.json.encode(line) + b"\n"


def encode_round(pairing: Pairing, match_ids: dict[int, str]) -> bytes:
    """A round line from its pairing and each table's match id (by number), newline included."""
    tables = [
        BundleTable(table=t.number, seats=t.seats, match_id=match_ids[t.number])
        for t in pairing.tables
    ]
    line = RoundLine(round=pairing.round, tables=tables, byes=pairing.byes,
                     half_byes=pairing.half_byes)
    return msgspec.json.encode(line) + b"\n"


def encode_match(round_number: int, table: int, export: MatchExport | bytes) -> bytes:
    """A match line around an export (a document or encode_export's bytes), newline included."""
    document = export if isinstance(export, bytes) else msgspec.json.encode(export)
    head = msgspec.json.encode({"kind": "match", "round": round_number, "table": table})
    return head[:-1] + b',"export":' + document + b"}\n"


def encode_standings(after_round: int, standings: list[Standing]) -> bytes:
    """The standings line, newline included."""
    table = [msgspec.convert(row, StandingRow) for row in rows(standings)]
    return msgspec.json.encode(StandingsLine(after_round=after_round, standings=table)) + b"\n"


def schema() -> dict[str, Any]:
    """The JSON Schema of one bundle line (committed as docs/tournament-bundle.schema.json)."""
    generated = msgspec.json.schema(Line)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Hearthlog tournament bundle line",
        "description": f"One NDJSON line of a tournament bundle, format version {FORMAT_VERSION}; "
        "see docs/tournaments.md",
        **generated,
    }


def schema_text() -> str:
    """The schema as stable, indented JSON with a final newline."""
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(schema_text(), end="")
