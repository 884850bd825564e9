"""The tournament store on Postgres (migrations 0008, 0009): tournaments, entrants, rounds,
tables, and the organizer's actions.

Every change is written at the tournament's ``revision`` and bumps it, in one transaction with
the rows it adds, so two writers (two requests, two servers, the sweep) never both change the
same revision: the loser gets ``RevisionConflict`` and reads again. The seed and the organizer's
token hash are read apart from the row, which never carries them.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

import asyncpg
import msgspec

from service.store.postgres import wall_clock
from service.store.records import StoreError

_COLUMNS = """tournament_id::text AS tournament_id, name, settings, auto_advance, status, round,
    revision, seed_commitment, created_at, finished_at, actions"""
_ENTRANT_COLUMNS = ("number, name, bot, withdrew_after, registered_at, approved, "
                    "player_id::text AS player_id")
# A running tournament needs the sweep when no table of its current round is being played: all
# finished (score it, start the next round or finish), or a table not yet made or started.
# Two reads, one per co-location group (docs/scaling.md): the running tournaments' current
# tables (joined within the tournament group by tournament_id), then which of their matches
# are in play (the match group, by match_id). Citus refuses a join across the two groups.
_CURRENT_TABLES = """
SELECT t.tournament_id::text AS tournament_id, tt.match_id FROM tournaments t
LEFT JOIN tournament_tables tt ON tt.tournament_id = t.tournament_id AND tt.round = t.round
WHERE t.status = 'running' ORDER BY t.created_at, t.tournament_id
"""
_ASIDE = 1_000_000  # above any entrant number (domain.tournament ENTRANTS_MAX)
_PLAYING = "SELECT match_id FROM matches WHERE match_id = ANY($1::uuid[]) AND status = 'playing'"


class NewTournament(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament to create, with its secrets (seed, organizer token hash)."""

    tournament_id: str
    name: str
    settings: dict[str, Any]
    auto_advance: bool
    seed: bytes
    seed_commitment: str
    organizer_token_hash: bytes


class NewEntrant(msgspec.Struct, frozen=True, kw_only=True):
    """An entrant to register: its name (and the key names are compared by), bot, token hash."""

    name: str
    name_key: str
    bot: str | None
    token_hash: bytes | None
    approved: bool = True
    player_id: str | None = None  # a player's entrant (migration 0010): its token is the player's


class TournamentRow(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament's row, without its secrets."""

    tournament_id: str
    name: str
    settings: dict[str, Any]
    auto_advance: bool
    status: str
    round: int
    revision: int
    seed_commitment: str
    created_at: datetime
    finished_at: datetime | None
    actions: list[dict[str, Any]] = []  # domain.tournament.Action, in the order recorded


class EntrantRow(msgspec.Struct, frozen=True, kw_only=True):
    """A registered entrant (its token hash stays in the store)."""

    number: int
    name: str
    bot: str | None
    withdrew_after: int | None
    registered_at: datetime
    approved: bool = True  # False: waiting for the organizer (settings.approval)
    player_id: str | None = None  # the player entered (its seats are recorded as the player's)


class RoundRow(msgspec.Struct, frozen=True, kw_only=True):
    """A started round: its pairing as stored and each table's match id, by table number."""

    round: int
    pairing: dict[str, Any]
    started_at: datetime
    matches: dict[int, str]


class RevisionConflict(StoreError):
    """Another writer changed the tournament first; read it again."""


class NameTaken(StoreError):
    """An entrant of the tournament already has this name."""


class RegistrationClosed(StoreError):
    """The tournament no longer takes entrants (its status is the message)."""


class Full(StoreError):
    """The tournament has as many entrants as its cap."""


class TournamentStore:
    """Tournaments on the same pool as the event store; a finish is timed by ``clock`` (sent
    with the statement, as the event store's times are: service.store.postgres)."""

    def __init__(self, pool: asyncpg.Pool, *, clock: Callable[[], datetime] = wall_clock,
                 ) -> None:
        self.pool, self.clock = pool, clock

    async def create(self, new: NewTournament) -> TournamentRow:
        """Insert a tournament in registration."""
        row = await self.pool.fetchrow(
            f"""INSERT INTO tournaments (tournament_id, name, settings, auto_advance, status,
                seed, seed_commitment, organizer_token_hash)
            VALUES ($1, $2, $3, $4, 'registering', $5, $6, $7) RETURNING {_COLUMNS}""",
            uuid.UUID(new.tournament_id), new.name, new.settings, new.auto_advance, new.seed,
            new.seed_commitment, new.organizer_token_hash)
        return _row(row)

    async def get(self, tournament_id: str) -> TournamentRow | None:
        """The tournament's row, or None."""
        key = _key(tournament_id)
        row = key and await self.pool.fetchrow(
            f"SELECT {_COLUMNS} FROM tournaments WHERE tournament_id = $1", key)
        return _row(row) if row else None

    async def page(self, limit: int, offset: int) -> list[tuple[TournamentRow, int]]:
        """Tournaments, newest first, one page, each with its count of entrants."""
        rows = await self.pool.fetch(
            f"""SELECT {_COLUMNS}, (SELECT count(*) FROM tournament_entrants e
                WHERE e.tournament_id = t.tournament_id) AS entrant_count
            FROM tournaments t ORDER BY created_at DESC, tournament_id
            LIMIT $1 OFFSET $2""", limit, offset)
        return [(_row({k: v for k, v in row.items() if k != "entrant_count"}),
                 row["entrant_count"]) for row in rows]

    async def secrets(self, tournament_id: str) -> tuple[bytes, bytes] | None:
        """The seed and the organizer token's hash, or None (never shown while it runs)."""
        row = await self.pool.fetchrow(
            "SELECT seed, organizer_token_hash FROM tournaments WHERE tournament_id = $1",
            _key(tournament_id))
        return None if row is None else (row["seed"], row["organizer_token_hash"])

    async def entrants(self, tournament_id: str) -> list[EntrantRow]:
        """Every entrant, in registration order."""
        rows = await self.pool.fetch(
            f"""SELECT {_ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = $1
            ORDER BY number""", _key(tournament_id))
        return [EntrantRow(**dict(row)) for row in rows]

    async def token_hashes(self, tournament_id: str) -> dict[int, bytes | None]:
        """Each entrant's token hash (None for a bot), to seat it at its tables."""
        rows = await self.pool.fetch(
            "SELECT number, token_hash FROM tournament_entrants WHERE tournament_id = $1",
            _key(tournament_id))
        return {row["number"]: row["token_hash"] for row in rows}

    async def entrant_for_token(self, tournament_id: str, token_hash: bytes) -> int | None:
        """The number of the entrant holding this token hash, or None."""
        return await self.pool.fetchval(
            """SELECT number FROM tournament_entrants
            WHERE tournament_id = $1 AND token_hash = $2""", _key(tournament_id), token_hash)

    async def register(self, tournament_id: str, entrant: NewEntrant, cap: int,
                       late_until: int | None = None) -> int:
        """Add the next entrant while registration is open and the cap not reached; its number.
        With ``late_until``, a running tournament takes a late entry before rounds up to that
        one: it enters at the next round, recorded as a late_entry action.

        Registrations queue on the tournament row's lock instead of racing at a revision, so
        any number of them at once each succeed or name their refusal (Closed, Full, NameTaken).
        """
        key = _key(tournament_id)
        async with self.pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow("SELECT status, round FROM tournaments "
                                      "WHERE tournament_id = $1 FOR UPDATE", key)
            status, current = (row["status"], row["round"]) if row else (None, 0)
            late = status == "running" and late_until is not None and current + 1 <= late_until
            if status != "registering" and not late:
                raise RegistrationClosed(str(status))
            number: int = await conn.fetchval(
                "SELECT count(*) FROM tournament_entrants WHERE tournament_id = $1", key)
            if number >= cap:
                raise Full(str(cap))
            try:
                await conn.execute(
                    """INSERT INTO tournament_entrants (tournament_id, number, name, name_key,
                        bot, token_hash, approved, player_id)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)""",
                    key, number, entrant.name, entrant.name_key, entrant.bot,
                    entrant.token_hash, entrant.approved,
                    entrant.player_id and uuid.UUID(entrant.player_id))
            except asyncpg.UniqueViolationError as error:
                raise NameTaken(entrant.name) from error
            entry = [{"kind": "late_entry", "round": current + 1, "by": "player",
                      "entrant": number}] if late else []
            await conn.execute("UPDATE tournaments SET revision = revision + 1, "
                               "actions = actions || $2::jsonb WHERE tournament_id = $1",
                               key, entry)
        return number

    async def remove(self, row: TournamentRow, number: int) -> None:
        """Take an entrant out before round 1: its row goes, and the others are numbered
        0, 1, 2, ... again in registration order."""
        async with self._change(row) as conn:
            await conn.execute("DELETE FROM tournament_entrants WHERE tournament_id = $1 "
                               "AND number = $2", row_key(row), number)
            await _renumber(conn, row_key(row))

    async def close(self, row: TournamentRow) -> None:
        """Close registration: entrants still waiting for approval are dropped, the rest
        numbered 0, 1, 2, ... again in registration order."""
        async with self._change(row) as conn:
            await conn.execute("DELETE FROM tournament_entrants WHERE tournament_id = $1 "
                               "AND NOT approved", row_key(row))
            await _renumber(conn, row_key(row))
            await conn.execute("UPDATE tournaments SET status = 'closed' WHERE tournament_id = $1",
                               row_key(row))

    async def approve(self, row: TournamentRow, number: int) -> None:
        """Approve an entrant waiting for the organizer."""
        async with self._change(row) as conn:
            await conn.execute("UPDATE tournament_entrants SET approved = true "
                               "WHERE tournament_id = $1 AND number = $2", row_key(row), number)

    async def act(self, row: TournamentRow, actions: list[dict[str, Any]], *,
                  withdraw: dict[int, int] | None = None, status: str | None = None) -> None:
        """Record actions at the row's revision, in one transaction with what they change:
        entrants withdrawn (number -> the last round paired in), the tournament's status
        (finished: its finish time is now)."""
        async with self._change(row) as conn:
            await conn.execute(
                "UPDATE tournaments SET actions = actions || $2::jsonb WHERE tournament_id = $1",
                row_key(row), actions)
            for number, after in (withdraw or {}).items():
                await conn.execute(
                    """UPDATE tournament_entrants SET withdrew_after = $3
                    WHERE tournament_id = $1 AND number = $2""", row_key(row), number, after)
            if status is not None:
                await conn.execute(
                    """UPDATE tournaments SET status = $2, finished_at = $3
                    WHERE tournament_id = $1""", row_key(row), status,
                    self.clock() if status == "finished" else None)

    async def unrecord(self, row: TournamentRow, kept: list[dict[str, Any]]) -> None:
        """Keep only ``kept`` of the recorded actions (a forfeit the match's own end
        contradicts is voided), at the row's revision."""
        async with self._change(row) as conn:
            await conn.execute("UPDATE tournaments SET actions = $2::jsonb "
                               "WHERE tournament_id = $1", row_key(row), kept)

    async def set_status(self, row: TournamentRow, status: str) -> None:
        """Move the tournament to ``status`` (finished: its finish time is now)."""
        async with self._change(row) as conn:
            finished = self.clock() if status == "finished" else None
            await conn.execute(
                "UPDATE tournaments SET status = $2, finished_at = $3 WHERE tournament_id = $1",
                row_key(row), status, finished)

    async def withdraw(self, row: TournamentRow, number: int, after: int) -> None:
        """Mark an entrant withdrawn after round ``after`` (not paired after it)."""
        async with self._change(row) as conn:
            await conn.execute(
                """UPDATE tournament_entrants SET withdrew_after = $3
                WHERE tournament_id = $1 AND number = $2""", row_key(row), number, after)

    async def add_round(self, row: TournamentRow, pairing: dict[str, Any],
                        matches: dict[int, str], actions: list[dict[str, Any]] | None = None
                        ) -> None:
        """Store the next round's pairing and its tables' match ids (with the actions that made
        it, as an organizer's pairing by hand); the tournament runs."""
        number = row.round + 1
        async with self._change(row) as conn:
            if actions:
                await conn.execute("UPDATE tournaments SET actions = actions || $2::jsonb "
                                   "WHERE tournament_id = $1", row_key(row), actions)
            await conn.execute(
                """INSERT INTO tournament_rounds (tournament_id, round, pairing)
                VALUES ($1, $2, $3)""", row_key(row), number, pairing)
            await conn.executemany(
                """INSERT INTO tournament_tables (tournament_id, round, table_number, match_id)
                VALUES ($1, $2, $3, $4)""",
                [(row_key(row), number, table, uuid.UUID(mid)) for table, mid in matches.items()])
            await conn.execute(
                "UPDATE tournaments SET round = $2, status = 'running' WHERE tournament_id = $1",
                row_key(row), number)

    async def rounds(self, tournament_id: str) -> list[RoundRow]:
        """Every started round, in order, with its tables' match ids."""
        key = _key(tournament_id)
        rounds = await self.pool.fetch(
            """SELECT round, pairing, started_at FROM tournament_rounds
            WHERE tournament_id = $1 ORDER BY round""", key)
        tables = await self.pool.fetch(
            """SELECT round, table_number, match_id::text AS match_id FROM tournament_tables
            WHERE tournament_id = $1""", key)
        by_round: dict[int, dict[int, str]] = {}
        for table in tables:
            by_round.setdefault(table["round"], {})[table["table_number"]] = table["match_id"]
        return [RoundRow(round=r["round"], pairing=r["pairing"], started_at=r["started_at"],
                         matches=dict(sorted(by_round.get(r["round"], {}).items())))
                for r in rounds]

    async def needing_sweep(self, limit: int = 100) -> list[str]:
        """Running tournaments none of whose current tables is being played, oldest first."""
        tables = await self.pool.fetch(_CURRENT_TABLES)
        matches = [row["match_id"] for row in tables if row["match_id"] is not None]
        playing = {row["match_id"] for row in await self.pool.fetch(_PLAYING, matches)}
        busy = {row["tournament_id"] for row in tables if row["match_id"] in playing}
        running = dict.fromkeys(row["tournament_id"] for row in tables)  # in order, once each
        return [tournament for tournament in running if tournament not in busy][:limit]

    async def watching_idle(self, limit: int = 100) -> list[tuple[str, int]]:
        """Running tournaments that forfeit idle seats (settings.timeouts_to_forfeit), each
        with its turn clock in seconds."""
        rows = await self.pool.fetch(
            """SELECT tournament_id::text AS tournament_id,
                (settings->>'turn_seconds')::int AS turn_seconds FROM tournaments
            WHERE status = 'running' AND settings ? 'timeouts_to_forfeit'
            ORDER BY created_at, tournament_id LIMIT $1""", limit)
        return [(row["tournament_id"], row["turn_seconds"] or 1) for row in rows]

    def _change(self, row: TournamentRow) -> _Change:
        """A transaction that first bumps the row's revision, or raises RevisionConflict."""
        return _Change(self.pool, row)


class _Change:
    """``async with``: a transaction on one connection, begun by bumping the revision."""

    def __init__(self, pool: asyncpg.Pool, row: TournamentRow) -> None:
        self.pool, self.row = pool, row

    async def __aenter__(self) -> asyncpg.Connection:
        """Acquire, begin, bump at the expected revision."""
        self.conn = await self.pool.acquire()
        self.tx = self.conn.transaction()
        await self.tx.start()
        bumped = await self.conn.fetchval(
            """UPDATE tournaments SET revision = revision + 1
            WHERE tournament_id = $1 AND revision = $2 RETURNING revision""",
            row_key(self.row), self.row.revision)
        if bumped is None:
            await self._end(commit=False)
            raise RevisionConflict(f"tournament {self.row.tournament_id} changed meanwhile")
        return self.conn

    async def __aexit__(self, kind: Any, *_: Any) -> None:
        """Commit when the block succeeded, else roll back; release the connection."""
        await self._end(commit=kind is None)

    async def _end(self, commit: bool) -> None:
        """Finish the transaction and give the connection back."""
        try:
            await (self.tx.commit() if commit else self.tx.rollback())
        finally:
            await self.pool.release(self.conn)


async def _renumber(conn: asyncpg.Connection, key: uuid.UUID) -> None:
    """Number a tournament's entrants 0, 1, 2, ... in their order (through numbers above
    _ASIDE, so the key (tournament, number) stays unique at every row)."""
    await conn.execute(
        """UPDATE tournament_entrants e SET number = r.place + $2 FROM (
            SELECT number, row_number() OVER (ORDER BY number) - 1 AS place
            FROM tournament_entrants WHERE tournament_id = $1) r
        WHERE e.tournament_id = $1 AND e.number = r.number""", key, _ASIDE)
    await conn.execute("UPDATE tournament_entrants SET number = number - $2 "
                       "WHERE tournament_id = $1", key, _ASIDE)


def _key(tournament_id: str) -> uuid.UUID | None:
    """The id as a UUID, or None when it is not one (so no tournament has it)."""
    try:
        return uuid.UUID(str(tournament_id))
    except ValueError:
        return None


def row_key(row: TournamentRow) -> uuid.UUID:
    """The row's id as a UUID."""
    return uuid.UUID(row.tournament_id)


def _row(row: Any) -> TournamentRow:
    """A database row (or its columns as a dict) as a TournamentRow."""
    return TournamentRow(**dict(row))
