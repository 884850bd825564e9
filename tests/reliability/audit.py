"""What the database holds, checked from outside the service, with plain SQL.

For every match: versions 1..n without a gap, the hash chain intact and ending at the match row's
head, every command's events exactly what the rules give when the recorded commands are decided
again (so no command is half-written, lost or applied twice), every idempotency record pointing
at the last event of its command's one batch, and a finished match passing the offline verifier.
"""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec

from domain.core import match
from domain.core.codec import event_decoder
from domain.core.match import MatchCreated
from domain.games import GAMES
from projections import verify
from projections.export import (
    FORMAT,
    FORMAT_VERSION,
    Event,
    Header,
    MatchExport,
    Metadata,
    Player,
    Result,
)

EVENTS = """SELECT version, type, data::text AS data, metadata::text AS metadata, recorded_at, hash
FROM events WHERE match_id = $1 ORDER BY version"""
MATCH = """SELECT game, status, version, head_hash, server_seed, summary::text AS summary,
created_at, finished_at FROM matches JOIN heads USING (match_id) WHERE match_id = $1"""
COMMANDS = "SELECT command_id, seat, version, response FROM commands WHERE match_id = $1"


class History(msgspec.Struct, kw_only=True):
    """One match as stored: its row, events and idempotency records."""

    match_id: str
    row: dict[str, Any]
    events: list[Event]
    commands: dict[str, dict[str, Any]]

    def batches(self) -> dict[str, list[int]]:
        """The versions each command id's events hold."""
        found: dict[str, list[int]] = {}
        for event in self.events:
            if event.metadata.command_id is not None:
                found.setdefault(event.metadata.command_id, []).append(event.version)
        return found


async def load(connection: asyncpg.Connection, match_id: str) -> History:
    """A match's row, events and command records, read with plain SQL."""
    row = dict(await connection.fetchrow(MATCH, match_id))
    events = [stored_event(r) for r in await connection.fetch(EVENTS, match_id)]
    commands = {r["command_id"]: dict(r) for r in await connection.fetch(COMMANDS, match_id)}
    return History(match_id=match_id, row=row, events=events, commands=commands)


def stored_event(row: asyncpg.Record) -> Event:
    """An event row in the export's form (data byte for byte)."""
    return Event(
        version=row["version"],
        type=row["type"],
        data=msgspec.Raw(row["data"].encode()),
        metadata=msgspec.json.decode(row["metadata"], type=Metadata),
        recorded_at=row["recorded_at"],
        hash=row["hash"].hex(),
    )


def problems(history: History) -> list[str]:
    """Everything wrong with a stored match (empty: it is whole and consistent)."""
    found = check_versions(history) + check_replay(history) + check_commands(history)
    if not found and history.row["status"] == "finished":
        found += check_verifier(history)
    return [f"match {history.match_id}: {problem}" for problem in found]


def check_versions(history: History) -> list[str]:
    """Versions 1..n, and the match row at version n."""
    versions = [event.version for event in history.events]
    found = [] if versions == list(range(1, len(versions) + 1)) else [f"versions {versions}"]
    if history.row["version"] != len(versions):
        found.append(f"row at version {history.row['version']}, {len(versions)} events stored")
    return found


def check_replay(history: History) -> list[str]:
    """The chain and every batch of events, re-decided from the recorded commands."""
    game = GAMES[history.row["game"]]
    try:
        _, head = verify.replay(game, as_export(history), bytes(history.row["server_seed"]))
    except verify.Divergence as divergence:
        return [f"replay: {divergence.problem.message}"]
    if head != bytes(history.row["head_hash"]):
        return ["the match row's head hash is not the last event's hash"]
    return []


def check_commands(history: History) -> list[str]:
    """Each idempotency record names the last event of its command's single batch."""
    found, batches = [], history.batches()
    for command_id, versions in batches.items():
        if versions != list(range(versions[0], versions[-1] + 1)):
            found.append(f"command {command_id!r} applied more than once: {versions}")
    for command_id, record in history.commands.items():
        versions = batches.get(command_id)
        if not versions or versions[-1] != record["version"]:
            found.append(f"command {command_id!r} recorded at {record['version']}, "
                         f"its events are at {versions}")
    return found


def check_verifier(history: History) -> list[str]:
    """A finished match passes the offline verifier as its export would."""
    document = as_export(history, finished=True)
    report = verify.verify(document)
    return [] if report.ok else [f"verifier: {report.problem}"]


def as_export(history: History, finished: bool = False) -> MatchExport:
    """The stored match as an export document (the result and seeds only when finished; a
    seat a bot plays named with its bot, as the export does)."""
    created = msgspec.json.decode(bytes(history.events[0].data), type=MatchCreated)
    summary = msgspec.json.decode(history.row["summary"])
    header = Header(
        format=FORMAT, format_version=FORMAT_VERSION, match_id=history.match_id,
        game=created.game, rules_version=created.rules_version, options=created.options,
        seats=created.seats, practice=created.practice,
        players=[Player(seat=seat, name=name, bot=bot) for seat, (name, bot) in
                 enumerate(zip(summary["names"], summary.get("bots") or [None] * 99,
                               strict=False))],
        tournament=created.tournament, label=created.label,
        created_at=history.row["created_at"], finished_at=history.row["finished_at"],
        result=msgspec.convert(summary["result"], Result) if finished else None,
        seed_commitment=created.seed_commitment,
        server_seed=bytes(history.row["server_seed"]).hex(),
        client_seeds=summary.get("client_seeds") or [], version=len(history.events),
        head_hash=history.events[-1].hash,
    )
    return MatchExport(header=header, events=history.events)


async def audit(database_url: str, match_ids: list[str] | None = None) -> tuple[int, list[str]]:
    """Check every (or the given) match of a database: (events checked, problems found)."""
    connection = await asyncpg.connect(database_url)
    try:
        if match_ids is None:
            match_ids = [str(r["match_id"]) for r in await connection.fetch(
                "SELECT match_id FROM matches")]
        histories = [await load(connection, match_id) for match_id in match_ids]
    finally:
        await connection.close()
    return sum(len(h.events) for h in histories), [p for h in histories for p in problems(h)]


async def records(database_url: str) -> dict[str, tuple[str, int, bytes]]:
    """Every idempotency record: command id -> (match id, version, first answer)."""
    connection = await asyncpg.connect(database_url)
    try:
        rows = await connection.fetch(
            "SELECT match_id, command_id, version, response FROM commands")
    finally:
        await connection.close()
    return {r["command_id"]: (str(r["match_id"]), r["version"], bytes(r["response"]))
            for r in rows}


def typed(history: History, upto: int) -> list[Any]:
    """The match's first ``upto`` events, decoded."""
    decoder = event_decoder(GAMES[history.row["game"]])
    return [decoder.decode(bytes(event.data)) for event in history.events[:upto]]


def fold(history: History, upto: int) -> Any:
    """The match state after its first ``upto`` events (the whole truth: hands and deck)."""
    return match.fold(GAMES[history.row["game"]], typed(history, upto))


async def history_of(database_url: str, match_id: str) -> History:
    """One match as stored."""
    connection = await asyncpg.connect(database_url)
    try:
        return await load(connection, match_id)
    finally:
        await connection.close()


async def seeds(database_url: str) -> list[str]:
    """Every match's secret server seed, in hex (for checking that no log shows one)."""
    connection = await asyncpg.connect(database_url)
    try:
        rows = await connection.fetch("SELECT server_seed FROM matches")
    finally:
        await connection.close()
    return [bytes(row["server_seed"]).hex() for row in rows]
