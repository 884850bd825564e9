"""The ratings on Postgres (migration 0012): rated matches applied once each, the rows of their
updates, append only, and the leaderboard's read model (each subject's latest rating).

``apply`` writes one match's updates in one transaction under its game's advisory lock, after
checking the match is not applied yet, so two server processes applying the same match (or two
matches of one game) take turns: the second finds it done, or numbers its own after it. The
updates are worked out inside the lock from the ratings the rows then hold (``rate``, pure).
Reads of the match group and of the ratings group are separate statements: under Citus they are
two co-location groups (service/store/sharding.py), and no statement joins them.
"""

from __future__ import annotations

import uuid
import zlib
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from typing import Any

import asyncpg
import msgspec

from projections.ratings import RatedMatch, Rating, RatingUpdate

_UPDATE_COLUMNS = """game, sequence, match_id::text AS match_id, subject, seat, place,
    mu_before, sigma_before, mu_after, sigma_after, ordinal_after, games, provisional"""
# Finished matches whose first event says rated: after a (finish, match id), oldest first; or
# among some matches.
_RATED = """SELECT m.match_id::text AS match_id, m.game, m.finished_at, m.summary
FROM matches m JOIN events e ON e.match_id = m.match_id AND e.version = 1
WHERE m.status = 'finished' AND NOT m.practice AND (e.data ->> 'rated') = 'true' AND """
_AFTER = _RATED + """(m.finished_at, m.match_id) > ($1, $2)
ORDER BY m.finished_at, m.match_id LIMIT $3"""
_AMONG = _RATED + "m.match_id = ANY($1::uuid[]) ORDER BY m.finished_at, m.match_id"
_SEATS = """SELECT data::text AS data FROM events
WHERE match_id = $1 AND (version = 1 OR type = 'seat_joined') ORDER BY version"""
_LATEST = """SELECT subject, mu AS mu_after, sigma AS sigma_after, games, provisional
FROM rating_standings WHERE game = $1 AND subject = ANY($2::text[])"""
_BOARD = """SELECT s.subject, s.mu AS mu_after, s.sigma AS sigma_after, s.ordinal, s.games,
    s.provisional, s.sequence, p.name
FROM rating_standings s LEFT JOIN players p ON p.player_id::text = s.subject
WHERE s.game = $1 ORDER BY s.ordinal DESC, s.subject LIMIT $2 OFFSET $3"""
_SUBJECTS = "SELECT count(*) FROM rating_standings WHERE game = $1"
_STANDING = """INSERT INTO rating_standings
    (game, subject, sequence, mu, sigma, ordinal, games, provisional)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (game, subject) DO UPDATE SET sequence = excluded.sequence, mu = excluded.mu,
    sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games,
    provisional = excluded.provisional"""


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """A finished match whose first event says rated: its game, finish and result."""

    match_id: str
    game: str
    finished_at: datetime
    placements: tuple[int, ...]


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """A subject's latest rating in a game, with a player's name (None for a bot)."""

    subject: str
    name: str | None
    rating: Rating
    ordinal: float
    sequence: int  # the last rated match that moved it


Rate = Callable[[RatedMatch, int, dict[str, Rating]], list[RatingUpdate]]


class RatingStore:
    """Rated matches and rating updates on the event store's pool."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def watermark(self) -> datetime | None:
        """The latest finish among the matches applied, or None before the first."""
        found: datetime | None = await self.pool.fetchval(
            "SELECT max(finished_at) FROM rated_matches")
        return found

    async def finished_rated(self, after: tuple[datetime, str], limit: int) -> list[Pending]:
        """Finished rated matches after a (finish, match id), oldest first (applied or not)."""
        return [_pending(row) for row in await self.pool.fetch(
            _AFTER, after[0], uuid.UUID(after[1]), limit)]

    async def finished_among(self, match_ids: Sequence[str]) -> list[Pending]:
        """Those of these matches that are finished and rated, oldest finish first."""
        keys = [uuid.UUID(m) for m in match_ids]
        return [_pending(row) for row in await self.pool.fetch(_AMONG, keys)] if keys else []

    async def applied(self, game: str, match_ids: Sequence[str]) -> set[str]:
        """Which of these matches of a game are applied already."""
        rows = await self.pool.fetch(
            "SELECT match_id::text AS m FROM rated_matches WHERE game = $1 AND match_id = ANY($2)",
            game, [uuid.UUID(m) for m in match_ids])
        return {row["m"] for row in rows}

    async def seats(self, match_id: str) -> list[dict[str, Any]]:
        """The match_created and seat_joined events' data of a match, in order."""
        rows = await self.pool.fetch(_SEATS, uuid.UUID(match_id))
        return [msgspec.json.decode(row["data"]) for row in rows]

    async def apply(self, pending: Pending, match: RatedMatch | None, rate: Rate,
                    ) -> list[RatingUpdate] | None:
        """Apply one match once: its updates, or None when it was applied already."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _lock(pending.game))
            if await conn.fetchval(
                    "SELECT 1 FROM rated_matches WHERE game = $1 AND match_id = $2",
                    pending.game, uuid.UUID(pending.match_id)):
                return None
            last = await conn.fetchval(
                "SELECT coalesce(max(sequence), 0) FROM rated_matches WHERE game = $1",
                pending.game)
            current = await _latest(conn, pending.game, match.subjects if match else ())
            updates = rate(match, last + 1, current) if match else []
            await conn.execute(
                """INSERT INTO rated_matches (game, match_id, sequence, finished_at)
                VALUES ($1, $2, $3, $4)""", pending.game, uuid.UUID(pending.match_id),
                last + 1 if updates else None, pending.finished_at)
            await conn.executemany(
                "INSERT INTO rating_updates VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
                "$11, $12, $13)", [_values(u) for u in updates])
            await conn.executemany(_STANDING, [
                (u.game, u.subject, u.sequence, u.mu_after, u.sigma_after, u.ordinal_after,
                 u.games, u.provisional) for u in updates])
            return updates

    async def current(self, game: str, subjects: Sequence[str]) -> dict[str, Rating]:
        """The latest rating of each of these subjects that has one."""
        async with self.pool.acquire() as conn:
            return await _latest(conn, game, subjects)

    async def board(self, game: str, limit: int, offset: int) -> tuple[list[Standing], int]:
        """One page of a game's subjects by ordinal, best first, and how many there are."""
        rows = await self.pool.fetch(_BOARD, game, limit, offset)
        total = await self.pool.fetchval(_SUBJECTS, game)
        return [Standing(subject=row["subject"], name=row["name"], rating=_rating(row),
                         ordinal=row["ordinal"], sequence=row["sequence"])
                for row in rows], total

    async def history(self, game: str, subject: str, limit: int, offset: int,
                      ) -> list[RatingUpdate]:
        """A subject's updates in a game, oldest first, one page."""
        rows = await self.pool.fetch(
            f"""SELECT {_UPDATE_COLUMNS} FROM rating_updates WHERE game = $1 AND subject = $2
            ORDER BY sequence LIMIT $3 OFFSET $4""", game, subject, limit, offset)
        return [RatingUpdate(**dict(row)) for row in rows]

    async def updates(self, game: str, batch: int = 2000) -> AsyncIterator[list[RatingUpdate]]:
        """Every update of a game in sequence order (then seat), in batches."""
        after = (0, -1)
        while True:
            rows = await self.pool.fetch(
                f"""SELECT {_UPDATE_COLUMNS} FROM rating_updates
                WHERE game = $1 AND (sequence, seat) > ($2, $3)
                ORDER BY sequence, seat LIMIT $4""", game, *after, batch)
            if not rows:
                return
            yield [RatingUpdate(**dict(row)) for row in rows]
            after = (rows[-1]["sequence"], rows[-1]["seat"])


async def _latest(conn: Any, game: str, subjects: Sequence[str]) -> dict[str, Rating]:
    """The latest rating of each subject that has one (on one connection)."""
    rows = await conn.fetch(_LATEST, game, list(subjects)) if subjects else []
    return {row["subject"]: _rating(row) for row in rows}


def _pending(row: Any) -> Pending:
    """A pending match from a row of matches (its placements from the summary's result)."""
    result = (row["summary"] or {}).get("result") or {}
    return Pending(match_id=row["match_id"], game=row["game"], finished_at=row["finished_at"],
                   placements=tuple(result.get("placements") or ()))


def _rating(row: Any) -> Rating:
    """A rating from a row's after columns."""
    return Rating(mu=row["mu_after"], sigma=row["sigma_after"], games=row["games"],
                  provisional=row["provisional"])


def _values(update: RatingUpdate) -> tuple[Any, ...]:
    """An update as rating_updates' columns, in table order."""
    return (update.game, update.sequence, update.subject, uuid.UUID(update.match_id),
            update.seat, update.place, update.mu_before, update.sigma_before, update.mu_after,
            update.sigma_after, update.ordinal_after, update.games, update.provisional)


def _lock(game: str) -> int:
    """The advisory lock key of a game's applies (a fixed hash, the same in every process)."""
    return zlib.crc32(f"hearthlog ratings {game}".encode())
