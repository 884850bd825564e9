"""The play queue on Postgres (migration 0013): the waiting players and the tables formed.

A player has one row at most. The matcher claims rows in one transaction (``Claim``): it reads
a game's waiting rows, then seats each formed table by setting ``match_id`` only where it is
still NULL and writing the table's row; if any player of the pass was seated elsewhere or left
meanwhile, the whole pass is rolled back (``Clashed``) and tried again later, so no player is
ever seated twice. A per-game advisory lock keeps two processes from doing the same pass at
once (an optimisation: the claim's guard alone keeps the promise). docs/matchmaking.md.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import asyncpg
import msgspec

from service.store.records import StoreError

_COLUMNS = """player_id::text AS player_id, name, game, seats_min, seats_max, rated, options,
    bots, ticket_key, joined_at, match_id::text AS match_id, seat, seated_at"""
_TABLE_COLUMNS = """match_id::text AS match_id, game, rated, options, players, bots, bot,
    formed_at, started_at"""
_LOCK = "SELECT pg_try_advisory_xact_lock(hashtextextended('hearthlog-queue:' || $1, 0))"


class QueueRow(msgspec.Struct, frozen=True, kw_only=True):
    """A player's place in the queue: what it asked for, and where it sits once seated."""

    player_id: str
    name: str
    game: str
    seats_min: int
    seats_max: int
    rated: bool
    options: dict[str, Any]
    bots: bool
    ticket_key: bytes
    joined_at: datetime
    match_id: str | None = None
    seat: int | None = None
    seated_at: datetime | None = None  # when its table's match started


class TableRow(msgspec.Struct, frozen=True, kw_only=True):
    """A formed table: its match id, the players (id, name) in seat order, then the bots."""

    match_id: str
    game: str
    rated: bool
    options: dict[str, Any]
    players: list[tuple[str, str]]
    bots: int
    bot: str | None
    formed_at: datetime
    started_at: datetime | None = None


class AlreadyQueued(StoreError):
    """The player already waits, or sits at a table still being set up (the row)."""

    def __init__(self, row: QueueRow) -> None:
        super().__init__(row.player_id)
        self.row = row


class Clashed(StoreError):
    """A player of the pass left or was seated by another pass: nothing was written."""


class QueueStore:
    """The queue's rows on the event store's pool."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def join(self, row: QueueRow) -> QueueRow:
        """Put the player in the queue; a seated row whose table has started is replaced.
        ``AlreadyQueued`` when it waits, or its table is not yet started."""
        async with self.pool.acquire() as conn, conn.transaction():
            old = await conn.fetchrow(f"SELECT {_COLUMNS} FROM queue_entries "
                                      "WHERE player_id = $1 FOR UPDATE", uuid.UUID(row.player_id))
            if old is not None:
                if old["seated_at"] is None:  # waiting, or its table not yet started
                    raise AlreadyQueued(QueueRow(**dict(old)))
                await conn.execute("DELETE FROM queue_entries WHERE player_id = $1",
                                   uuid.UUID(row.player_id))
            try:
                await conn.execute(
                    """INSERT INTO queue_entries (player_id, name, game, seats_min, seats_max,
                        rated, options, bots, ticket_key, joined_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)""",
                    uuid.UUID(row.player_id), row.name, row.game, row.seats_min, row.seats_max,
                    row.rated, row.options, row.bots, row.ticket_key, row.joined_at)
            except asyncpg.UniqueViolationError:  # a join of its own at the same moment
                raise AlreadyQueued(row) from None
        return row

    async def get(self, player_id: str) -> QueueRow | None:
        """The player's row, or None."""
        row = await self.pool.fetchrow(f"SELECT {_COLUMNS} FROM queue_entries "
                                       "WHERE player_id = $1", uuid.UUID(player_id))
        return None if row is None else QueueRow(**dict(row))

    async def leave(self, player_id: str) -> bool:
        """Take a waiting player out of the queue at once; False if it was not waiting (a pass
        seating it meanwhile holds its row until it commits, so this never half-seats it)."""
        done = await self.pool.execute(
            "DELETE FROM queue_entries WHERE player_id = $1 AND match_id IS NULL",
            uuid.UUID(player_id))
        return done != "DELETE 0"

    async def games_waiting(self) -> list[str]:
        """The games someone waits for, sorted."""
        rows = await self.pool.fetch(
            "SELECT DISTINCT game FROM queue_entries WHERE match_id IS NULL ORDER BY game")
        return [row["game"] for row in rows]

    @asynccontextmanager
    async def claim(self, game: str) -> AsyncIterator[Claim | None]:
        """A transaction to match ``game``'s waiting players in; None when another process is
        matching that game right now (try again on the next pass)."""
        async with self.pool.acquire() as conn, conn.transaction():
            if not await conn.fetchval(_LOCK, game):
                yield None
                return
            yield Claim(conn, game)

    async def owed(self, formed_before: datetime) -> list[TableRow]:
        """Tables formed before the time whose set-up is still owed (a crash, a failure)."""
        rows = await self.pool.fetch(
            f"""SELECT {_TABLE_COLUMNS} FROM queue_tables WHERE started_at IS NULL
            AND formed_at < $1 ORDER BY formed_at, match_id""", formed_before)
        return [_table(row) for row in rows]

    async def give_up(self, match_id: str) -> bool:
        """Drop a table never set up and its players' rows (out of the queue); False if it was
        set up meanwhile (nothing is changed then)."""
        key = uuid.UUID(match_id)
        async with self.pool.acquire() as conn, conn.transaction():
            dropped = await conn.execute(
                "DELETE FROM queue_tables WHERE match_id = $1 AND started_at IS NULL", key)
            if dropped == "DELETE 0":
                return False
            await conn.execute("DELETE FROM queue_entries WHERE match_id = $1", key)
            return True

    async def started(self, match_id: str, at: datetime) -> None:
        """The table's match is made, seated and started: its players' rows say so too
        (``seated_at``), so a player's status is one row's read."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("UPDATE queue_tables SET started_at = $2 WHERE match_id = $1",
                               uuid.UUID(match_id), at)
            await conn.execute("UPDATE queue_entries SET seated_at = $2 WHERE match_id = $1",
                               uuid.UUID(match_id), at)


class Claim:
    """One matching pass of one game, in one transaction."""

    def __init__(self, conn: asyncpg.Connection, game: str) -> None:
        self.conn, self.game = conn, game

    async def waiting(self) -> list[QueueRow]:
        """The game's waiting players, longest waiting first."""
        rows = await self.conn.fetch(
            f"""SELECT {_COLUMNS} FROM queue_entries WHERE game = $1 AND match_id IS NULL
            ORDER BY joined_at, player_id""", self.game)
        return [QueueRow(**dict(row)) for row in rows]

    async def seat(self, tables: list[TableRow]) -> None:
        """Write the tables and seat their players, each only if still waiting (else
        ``Clashed``, and the caller's transaction is rolled back): one statement for the seats,
        one batch for the tables, however many there are."""
        players = [uuid.UUID(p) for t in tables for p, _ in t.players]
        matches = [uuid.UUID(t.match_id) for t in tables for _ in t.players]
        seats = [seat for t in tables for seat in range(len(t.players))]
        seated = await self.conn.fetchval(
            """WITH seated AS (UPDATE queue_entries q SET match_id = s.match_id, seat = s.seat
                FROM unnest($1::uuid[], $2::uuid[], $3::int[]) AS s(player_id, match_id, seat)
                WHERE q.player_id = s.player_id AND q.match_id IS NULL RETURNING 1)
            SELECT count(*) FROM seated""", players, matches, seats)
        if seated != len(players):
            raise Clashed(", ".join(t.match_id for t in tables))
        await self.conn.executemany(
            """INSERT INTO queue_tables (match_id, game, rated, options, players, bots, bot,
                formed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)""",
            [(uuid.UUID(t.match_id), t.game, t.rated, t.options, [list(p) for p in t.players],
              t.bots, t.bot, t.formed_at) for t in tables])


def _table(row: Any) -> TableRow:
    """A database row as a TableRow."""
    found = dict(row)
    found["players"] = [tuple(p) for p in found["players"]]
    return TableRow(**found)
