"""The player store on Postgres (migration 0010): players, and what the events say they did.

A player's row holds its name, the key names are compared by (service.names.likeness) and its
token's hash; the token itself is never stored. Which seat a player took is not a second record
kept beside the events: it is the ``player`` of the match's SeatJoined event, found through the
``events_by_player`` index, so it is written in the append's one statement and exported with the
match. Under Citus ``players`` is a reference table (service/store/sharding.py): every statement
here joins it only with one group's tables (the match group's or the tournament group's).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Literal

import asyncpg
import msgspec

from service.store.postgres import wall_clock
from service.store.records import StoreError

_COLUMNS = "player_id::text AS player_id, name, app_id::text AS app_id, created_at"
# A player's seats, newest match first: the seat_joined events naming it, with their match rows.
_SEATS = """
SELECT m.match_id::text AS match_id, m.game, m.status, m.practice, m.summary, m.created_at,
       m.finished_at, (e.data->>'seat')::int AS seat
FROM events e JOIN matches m ON m.match_id = e.match_id
WHERE e.type = 'seat_joined' AND e.data->>'player' = $1
ORDER BY m.created_at DESC, m.match_id LIMIT $2 OFFSET $3
"""
_SEAT_IN = """
SELECT (data->>'seat')::int FROM events
WHERE match_id = $1 AND type = 'seat_joined' AND data->>'player' = $2
"""
# The same, for the player holding a token: under Citus a query routed to one match's shard,
# reading the reference table ``players`` there.
_SEAT_OF_TOKEN = """
SELECT (data->>'seat')::int FROM events
WHERE match_id = $1 AND type = 'seat_joined'
  AND data->>'player' = (SELECT player_id::text FROM players WHERE token_hash = $2)
"""
_FINISHED = """
SELECT m.match_id::text FROM events e JOIN matches m ON m.match_id = e.match_id
WHERE e.type = 'seat_joined' AND e.data->>'player' = $1 AND m.status = 'finished'
ORDER BY m.created_at, m.match_id
"""
_ENTRIES = """
SELECT t.tournament_id::text AS tournament_id, t.name AS tournament_name, t.status,
       t.created_at, t.finished_at, e.number AS entrant, e.name
FROM tournament_entrants e JOIN tournaments t ON t.tournament_id = e.tournament_id
WHERE e.player_id = $1 ORDER BY t.created_at DESC, t.tournament_id LIMIT $2 OFFSET $3
"""


class NewPlayer(msgspec.Struct, frozen=True, kw_only=True):
    """A player to create: its name as prepared, the key it is compared by, its token's hash."""

    player_id: str
    name: str
    name_key: str
    token_hash: bytes
    app_id: str | None = None


class Player(msgspec.Struct, frozen=True):
    """Who a player token is: its id, name and the client app that made it (None: a person);
    service.players hands it to every other part (it lives here, below them all)."""

    player_id: str
    name: str
    app_id: str | None


class PlayerRow(msgspec.Struct, frozen=True, kw_only=True):
    """A player as stored, without its token hash."""

    player_id: str
    name: str
    app_id: str | None
    created_at: datetime


class SeatRow(msgspec.Struct, frozen=True, kw_only=True):
    """A seat a player took: the match as listed (its summary holds names and the result)."""

    match_id: str
    game: str
    status: Literal["lobby", "playing", "finished"]
    practice: bool
    summary: dict[str, object]
    created_at: datetime
    finished_at: datetime | None
    seat: int


class EntryRow(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament a player registered in, and its entrant there."""

    tournament_id: str
    tournament_name: str
    status: str
    created_at: datetime
    finished_at: datetime | None
    entrant: int
    name: str


class NameClash(StoreError):
    """Another player's name is the same once compared (the message is that player's name)."""


class PlayerStore:
    """Players on the event store's pool; ``clock`` stamps a new player's creation."""

    def __init__(self, pool: asyncpg.Pool, *, clock: Callable[[], datetime] = wall_clock,
                 ) -> None:
        self.pool, self.clock = pool, clock

    async def create(self, new: NewPlayer) -> PlayerRow:
        """Insert a player; NameClash naming the player whose name it looks like."""
        try:
            row = await self.pool.fetchrow(
                f"""INSERT INTO players (player_id, name, name_key, token_hash, app_id,
                    created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING {_COLUMNS}""",
                uuid.UUID(new.player_id), new.name, new.name_key, new.token_hash,
                _key(new.app_id), self.clock())
        except asyncpg.UniqueViolationError:
            taken = await self.pool.fetchval(
                "SELECT name FROM players WHERE name_key = $1", new.name_key)
            raise NameClash(str(taken)) from None
        return PlayerRow(**dict(row))

    async def get(self, player_id: str) -> PlayerRow | None:
        """The player, or None (also for an id that is not a uuid)."""
        key = _key(player_id)
        row = key and await self.pool.fetchrow(
            f"SELECT {_COLUMNS} FROM players WHERE player_id = $1", key)
        return PlayerRow(**dict(row)) if row else None

    async def by_token(self, token_hash: bytes) -> PlayerRow | None:
        """The player holding this token hash, or None."""
        row = await self.pool.fetchrow(
            f"SELECT {_COLUMNS} FROM players WHERE token_hash = $1", token_hash)
        return PlayerRow(**dict(row)) if row else None

    async def seat_for_token(self, match_id: str, token_hash: bytes) -> int | None:
        """The seat in a match of the player holding this token hash, or None: one statement,
        asked only when the token is no seat's (service.access)."""
        key = _key(match_id)
        if key is None:
            return None
        seat: int | None = await self.pool.fetchval(_SEAT_OF_TOKEN, key, token_hash)
        return seat

    async def seat_of(self, match_id: str, player_id: str) -> int | None:
        """The seat a player took in a match, or None."""
        key = _key(match_id)
        seat: int | None = await self.pool.fetchval(_SEAT_IN, key, player_id) if key else None
        return seat

    async def seats(self, player_id: str, limit: int, offset: int) -> list[SeatRow]:
        """A page of the player's seats, newest match first."""
        rows = await self.pool.fetch(_SEATS, player_id, limit, offset)
        return [msgspec.convert(dict(row), SeatRow) for row in rows]

    async def finished(self, player_id: str) -> list[str]:
        """The ids of the player's finished matches, oldest first (its export)."""
        return [row[0] for row in await self.pool.fetch(_FINISHED, player_id)]

    async def entries(self, player_id: str, limit: int, offset: int) -> list[EntryRow]:
        """A page of the tournaments the player registered in, newest first."""
        key = _key(player_id)
        rows = await self.pool.fetch(_ENTRIES, key, limit, offset) if key else []
        return [EntryRow(**dict(row)) for row in rows]


def _key(value: str | None) -> uuid.UUID | None:
    """A uuid from text, or None for nothing or for text that is not one."""
    try:
        return uuid.UUID(str(value)) if value else None
    except ValueError:
        return None
