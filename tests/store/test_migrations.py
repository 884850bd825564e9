"""Migrations: each file applied once, in order, under a lock; an edited file stops start-up."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from domain.core.chain import GENESIS, chain, link
from projections.summary import Summary
from service.store import Change, NewEvent, PostgresStore
from service.store.migrations import (
    MIGRATIONS_DIR,
    MigrationError,
    apply_migrations,
    read_migrations,
)
from service.store.provisioning import create_database, create_pool, drop_database


@pytest.fixture
async def blank_url(postgres_server_url: str) -> AsyncIterator[str]:
    """An empty database of this test's own."""
    name = f"blank_{uuid.uuid4().hex[:12]}"
    yield await create_database(postgres_server_url, name)
    await drop_database(postgres_server_url, name)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A migrations folder with two files that would fail if run twice."""
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE first (id int PRIMARY KEY);\n")
    (tmp_path / "0002_second.sql").write_text(
        "SELECT pg_sleep(0.1);\nCREATE TABLE second (id int REFERENCES first);\n"
    )
    return tmp_path


def later_than(number: str) -> list[str]:
    """The project's migration files numbered after ``number``, in order: what a database
    migrated up to it has yet to apply."""
    return [m.name for m in read_migrations(MIGRATIONS_DIR) if m.name[:4] > number]


async def recorded(url: str) -> list[tuple[int, str]]:
    """The (version, name) rows of schema_migrations."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT version, name FROM schema_migrations ORDER BY version")
    finally:
        await conn.close()
    return [(row["version"], row["name"]) for row in rows]


async def test_pending_files_are_applied_in_order_and_recorded(
    blank_url: str, folder: Path
) -> None:
    applied = await apply_migrations(blank_url, folder)

    assert applied == ["0001_first.sql", "0002_second.sql"]
    assert await recorded(blank_url) == [(1, "0001_first.sql"), (2, "0002_second.sql")]


async def test_applying_again_applies_nothing(blank_url: str, folder: Path) -> None:
    await apply_migrations(blank_url, folder)

    assert await apply_migrations(blank_url, folder) == []


async def test_a_new_file_is_applied_after_the_recorded_ones(blank_url: str, folder: Path) -> None:
    await apply_migrations(blank_url, folder)
    (folder / "0003_third.sql").write_text("CREATE TABLE third (id int);\n")

    assert await apply_migrations(blank_url, folder) == ["0003_third.sql"]


async def test_concurrent_runs_apply_each_file_once(blank_url: str, folder: Path) -> None:
    runs = await asyncio.gather(*(apply_migrations(blank_url, folder) for _ in range(2)))

    assert sorted(runs, key=len) == [[], ["0001_first.sql", "0002_second.sql"]]
    assert len(await recorded(blank_url)) == 2


async def test_an_edited_applied_file_stops_start_up_naming_it(
    blank_url: str, folder: Path
) -> None:
    await apply_migrations(blank_url, folder)
    (folder / "0001_first.sql").write_text("CREATE TABLE first (id bigint PRIMARY KEY);\n")
    (folder / "0003_third.sql").write_text("CREATE TABLE third (id int);\n")

    with pytest.raises(MigrationError, match=r"0001_first.sql was edited after it was applied"):
        await apply_migrations(blank_url, folder)

    assert len(await recorded(blank_url)) == 2


async def test_a_failing_file_records_nothing_and_keeps_earlier_ones(
    blank_url: str, folder: Path
) -> None:
    (folder / "0003_broken.sql").write_text("CREATE TABLE broken (id int);\nSELECT nonsense;\n")

    with pytest.raises(MigrationError, match=r"0003_broken.sql failed"):
        await apply_migrations(blank_url, folder)

    assert len(await recorded(blank_url)) == 2
    conn = await asyncpg.connect(blank_url)
    try:
        assert await conn.fetchval("SELECT to_regclass('broken')") is None
    finally:
        await conn.close()


async def test_badly_named_or_doubled_files_are_refused(folder: Path) -> None:
    (folder / "0002_again.sql").write_text("SELECT 1;\n")
    with pytest.raises(MigrationError, match=r"version 2 is also"):
        read_migrations(folder)

    (folder / "0002_again.sql").rename(folder / "third.sql")
    with pytest.raises(MigrationError, match=r"third.sql"):
        read_migrations(folder)


async def test_an_open_connection_can_be_migrated(blank_url: str, folder: Path) -> None:
    conn = await asyncpg.connect(blank_url)
    try:
        assert await apply_migrations(conn, folder) == ["0001_first.sql", "0002_second.sql"]
    finally:
        await conn.close()


async def test_the_project_migrations_create_the_schema(blank_url: str) -> None:
    names = await apply_migrations(blank_url)

    assert names == [m.name for m in read_migrations(MIGRATIONS_DIR)]
    conn = await asyncpg.connect(blank_url)
    try:
        tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    finally:
        await conn.close()
    assert {row["tablename"] for row in tables} >= {
        "schema_migrations",
        "matches",
        "events",
        "seat_tokens",
        "commands",
        "heads",
    }


async def test_matches_stored_before_the_heads_table_keep_their_head(
    blank_url: str, tmp_path: Path
) -> None:
    for migration in read_migrations(MIGRATIONS_DIR)[:4]:
        (tmp_path / migration.name).write_text(migration.sql)
    await apply_migrations(blank_url, tmp_path)
    key, head = uuid.uuid4(), link(GENESIS, b'{"game":"embers"}')
    conn = await asyncpg.connect(blank_url)
    try:
        await conn.execute(
            """INSERT INTO matches (match_id, game, rules_version, status, seats, version,
            head_hash, seed_commitment, server_seed, updated_at)
            VALUES ($1, 'embers', '1', 'lobby', 2, 1, $2, 'c0ffee', '', '2026-01-02Z')""",
            key, head)
        await conn.execute(
            """INSERT INTO events (match_id, version, type, data, hash)
            VALUES ($1, 1, 'match_created', '{"game":"embers"}', $2)""", key, head)
    finally:
        await conn.close()

    assert await apply_migrations(blank_url) == later_than("0004")
    pool = await create_pool(blank_url)
    try:
        store = PostgresStore(pool)
        row = await store.get_match(str(key))
        assert row is not None and (row.version, row.head_hash) == (1, head)
        assert row.updated_at == datetime(2026, 1, 2, tzinfo=UTC)
        await store.append(str(key), 1, [NewEvent(type="x", data=b"{}")],
                           Change(status="playing", summary=Summary()))
        assert [e.hash for e in await store.load(str(key))] == chain(
            [b'{"game":"embers"}', b"{}"])
    finally:
        await pool.close()


async def test_matches_in_play_before_per_seat_clocks_count_from_their_last_append(
    blank_url: str, tmp_path: Path
) -> None:
    """Given a match in play with a bot to act and a lobby, stored before migration 0006, then
    the match in play owes since its last append (as the clock counted before) and the lobby
    owes nothing."""
    for migration in read_migrations(MIGRATIONS_DIR)[:5]:
        (tmp_path / migration.name).write_text(migration.sql)
    await apply_migrations(blank_url, tmp_path)
    playing, lobby = uuid.uuid4(), uuid.uuid4()
    conn = await asyncpg.connect(blank_url)
    try:
        for key, status in ((playing, "playing"), (lobby, "lobby")):
            await conn.execute(
                """INSERT INTO matches (match_id, game, rules_version, status, seats,
                seed_commitment, server_seed, summary)
                VALUES ($1, 'embers', '1', $2, 2, 'c0ffee', '', '{"bot_to_act": true}')""",
                key, status)
            await conn.execute(
                """INSERT INTO heads (match_id, version, head_hash, updated_at)
                VALUES ($1, 3, $2, '2026-01-02Z')""", key, link(GENESIS, b"{}"))
    finally:
        await conn.close()

    assert await apply_migrations(blank_url) == later_than("0005")
    pool = await create_pool(blank_url)
    try:
        store = PostgresStore(pool)
        moved, waiting = await store.get_match(str(playing)), await store.get_match(str(lobby))
    finally:
        await pool.close()
    then = datetime(2026, 1, 2, tzinfo=UTC)
    assert moved is not None and (moved.owed_since, moved.bot_owed_since) == (then, then)
    assert waiting is not None and (waiting.owed_since, waiting.bot_owed_since) == (None, None)
