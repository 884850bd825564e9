"""Numbered SQL migrations, applied in order, each once, under a Postgres advisory lock; and
``distribute``, which places the migrated tables on a Citus cluster under the same lock.

On a database already distributed, every table a migration creates is placed as
service.store.sharding says before the lock is released, so `hearthlog migrate` (and a server
starting) keeps the sharding plan without another step.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from service.store import sharding

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
LOCK_KEY = 0x4845_4152_5448  # "HEARTH": one fixed key for every Hearthlog database
_FILE_NAME = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")

_CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version int PRIMARY KEY,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


class MigrationError(Exception):
    """The migrations folder and the database disagree; start-up must stop."""


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str
    checksum: str


def read_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The folder's migrations in version order; a stray or doubled number is an error."""
    found: dict[int, Migration] = {}
    for path in sorted(Path(directory).glob("*.sql")):
        match = _FILE_NAME.fullmatch(path.name)
        if match is None:
            raise MigrationError(f"{path.name}: migration files are named like 0001_events.sql")
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"{path.name}: version {version} is also {found[version].name}")
        data = path.read_bytes()
        found[version] = Migration(
            version, path.name, data.decode(), hashlib.sha256(data).hexdigest()
        )
    return [found[v] for v in sorted(found)]


async def apply_migrations(
    url_or_conn: str | asyncpg.Connection, directory: Path = MIGRATIONS_DIR
) -> list[str]:
    """Apply every pending migration; return the names newly applied."""
    migrations = read_migrations(directory)
    if not isinstance(url_or_conn, str):
        return await _apply_locked(url_or_conn, migrations)
    conn = await asyncpg.connect(url_or_conn)
    try:
        return await _apply_locked(conn, migrations)
    finally:
        await conn.close()


async def _apply_locked(conn: asyncpg.Connection, migrations: list[Migration]) -> list[str]:
    """Hold the advisory lock while checking applied files and applying the rest."""
    await conn.execute("SELECT pg_advisory_lock($1)", LOCK_KEY)
    try:
        await conn.execute(_CREATE_TABLE)
        applied = await _applied_checksums(conn)
        _check_unchanged(migrations, applied)
        pending = [m for m in migrations if m.version not in applied]
        for migration in pending:
            await _apply_one(conn, migration)
        if pending:
            await sharding.keep_placed(conn)
        return [m.name for m in pending]
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", LOCK_KEY)


async def distribute(url: str, directory: Path = MIGRATIONS_DIR) -> tuple[list[str], list[str]]:
    """On a Citus coordinator: apply the pending migrations, then place every table not yet
    placed (docs/scaling.md), on an empty schema or one holding rows (Citus moves them to the
    shards). The migrations applied and the Citus calls made; NotCitus without the extension."""
    conn = await asyncpg.connect(url)
    try:
        if not await sharding.has_citus(conn):
            raise sharding.NotCitus("the database has no citus extension: run CREATE EXTENSION "
                                    "citus and add the workers first (docs/scaling.md)")
        applied = await _apply_locked(conn, read_migrations(directory))
        await conn.execute("SELECT pg_advisory_lock($1)", LOCK_KEY)
        try:
            placed = await sharding.place(conn, await sharding.unplaced(conn))
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", LOCK_KEY)
        return applied, placed
    finally:
        await conn.close()


async def _applied_checksums(conn: asyncpg.Connection) -> dict[int, str]:
    """Version -> checksum of every migration already recorded."""
    rows = await conn.fetch("SELECT version, checksum FROM schema_migrations")
    return {row["version"]: row["checksum"] for row in rows}


def _check_unchanged(migrations: list[Migration], applied: dict[int, str]) -> None:
    """Stop when a file that was already applied has been edited since."""
    for migration in migrations:
        recorded = applied.get(migration.version)
        if recorded is not None and recorded != migration.checksum:
            raise MigrationError(
                f"migration {migration.name} was edited after it was applied "
                f"(recorded sha256 {recorded[:12]}, file now {migration.checksum[:12]}); "
                "restore it and put the change in a new numbered file"
            )


async def _apply_one(conn: asyncpg.Connection, migration: Migration) -> None:
    """Run one file and record it, in one transaction."""
    async with conn.transaction():
        try:
            await conn.execute(migration.sql)
        except asyncpg.PostgresError as error:
            raise MigrationError(f"migration {migration.name} failed: {error}") from error
        await conn.execute(
            "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
            migration.version,
            migration.name,
            migration.checksum,
        )
