"""The client apps' store on Postgres (migration 0011): an app's row, found by its key's hash.

The key itself is never stored, only its SHA-256 hash (service.auth), as for every token.
"""

from __future__ import annotations

from datetime import datetime

import asyncpg
import msgspec

from service.store.records import StoreError

_COLUMNS = "app_id::text AS app_id, name, requests_per_minute, matches_per_hour, created_at"


class AppRow(msgspec.Struct, frozen=True, kw_only=True):
    """A registered app, without its key's hash."""

    app_id: str
    name: str
    requests_per_minute: int
    matches_per_hour: int
    created_at: datetime


class NewApp(msgspec.Struct, frozen=True, kw_only=True):
    """An app to register: its name (and the key names are compared by), its key's hash, its
    quotas."""

    app_id: str
    name: str
    name_key: str
    key_hash: bytes
    requests_per_minute: int
    matches_per_hour: int


class AppNameTaken(StoreError):
    """Another app has this name (compared by its key)."""


class AppStore:
    """Apps on one pool: add, list, and the one read the front makes, by key hash."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def add(self, app: NewApp) -> AppRow:
        """Register the app; AppNameTaken when its name is another's."""
        try:
            row = await self.pool.fetchrow(
                f"""INSERT INTO apps (app_id, name, name_key, key_hash, requests_per_minute,
                    matches_per_hour) VALUES ($1, $2, $3, $4, $5, $6) RETURNING {_COLUMNS}""",
                app.app_id, app.name, app.name_key, app.key_hash, app.requests_per_minute,
                app.matches_per_hour)
        except asyncpg.UniqueViolationError as error:
            raise AppNameTaken(app.name) from error
        return AppRow(**dict(row))

    async def by_key_hash(self, key_hash: bytes) -> AppRow | None:
        """The app whose key hashes to ``key_hash``, or None."""
        row = await self.pool.fetchrow(f"SELECT {_COLUMNS} FROM apps WHERE key_hash = $1",
                                       key_hash)
        return AppRow(**dict(row)) if row else None

    async def listed(self) -> list[AppRow]:
        """Every app, oldest first."""
        rows = await self.pool.fetch(f"SELECT {_COLUMNS} FROM apps ORDER BY created_at, app_id")
        return [AppRow(**dict(row)) for row in rows]
