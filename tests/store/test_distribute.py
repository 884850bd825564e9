"""`hearthlog distribute` on a real Citus cluster (tests/citus.py): the tables placed as
docs/scaling.md plans them, on a fresh cluster and on one already holding matches; `hearthlog
migrate` keeps working there, and a later migration's table is placed as it is applied."""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from domain.games import GAMES
from projections.verify import verify
from service import schemas
from service.exports import document
from service.matches import MatchService
from service.store import ExportFilter, PostgresStore
from service.store.migrations import MIGRATIONS_DIR, apply_migrations, distribute
from service.store.provisioning import create_pool
from service.store.sharding import NotCitus
from service.store.tournaments import TournamentStore
from tests.citus import Cluster
from tests.replay.random_matches import play
from tests.store.stored import store_played

HEARTHLOG = [sys.executable, "-m", "service.cli.main"]
MATCH_GROUP = {"matches", "events", "heads", "seat_tokens", "commands", "snapshots",
               "queue_tables"}
TOURNAMENT_GROUP = {"tournaments", "tournament_entrants", "tournament_rounds", "tournament_tables"}
RATING_GROUP = {"rated_matches", "rating_updates", "rating_standings"}
REFERENCE = {"schema_migrations", "apps", "players", "queue_entries"}
PLACED = """SELECT logicalrelid::regclass::text AS name, partmethod::text, colocationid,
    column_to_column_name(logicalrelid, partkey) AS key FROM pg_dist_partition"""


async def hearthlog(*args: str) -> tuple[int, str]:
    """Run the `hearthlog` command; its exit code and what it printed."""
    process = await asyncio.create_subprocess_exec(
        *HEARTHLOG, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(process.communicate(), timeout=120)
    return process.returncode or 0, out.decode()


@pytest.fixture
async def fresh(citus_cluster: Cluster) -> AsyncIterator[str]:
    """A database on the cluster with Citus and its workers, nothing of Hearthlog in it."""
    url = await citus_cluster.database()
    try:
        yield url
    finally:
        await citus_cluster.drop(url)


async def placements(url: str) -> dict[str, tuple[str, int, str | None]]:
    """Each placed table: (method: h hash, n reference; its co-location group; its key)."""
    conn = await asyncpg.connect(url)
    try:
        return {row["name"]: (row["partmethod"], row["colocationid"], row["key"])
                for row in await conn.fetch(PLACED)}
    finally:
        await conn.close()


def check_the_plan(placed: dict[str, tuple[str, int, str | None]]) -> None:
    """The placement of docs/scaling.md: three co-location groups and the reference tables."""
    assert set(placed) == MATCH_GROUP | TOURNAMENT_GROUP | RATING_GROUP | REFERENCE
    assert {placed[t][0] for t in REFERENCE} == {"n"}
    assert {placed[t] for t in MATCH_GROUP} == {("h", placed["matches"][1], "match_id")}
    assert {placed[t] for t in TOURNAMENT_GROUP} == {
        ("h", placed["tournaments"][1], "tournament_id")}
    assert {placed[t] for t in RATING_GROUP} == {("h", placed["rated_matches"][1], "game")}
    assert len({placed[a][1] for a in ("matches", "tournaments", "rated_matches")}) == 3


async def test_distribute_places_a_fresh_cluster_and_migrate_keeps_working(
    fresh: str, tmp_path: Path
):
    """Given a fresh cluster database, when `hearthlog distribute` runs, then every migration is
    applied and every table placed as planned; run again, it places nothing; `hearthlog migrate`
    has nothing to apply; a later migration's new table is placed with the match group as it
    is applied. A database without Citus is refused with a message saying so."""
    code, out = await hearthlog("distribute", "--database-url", fresh)
    again, second = await hearthlog("distribute", "--database-url", fresh)
    migrated, third = await hearthlog("migrate", "--database-url", fresh)

    assert code == 0, out
    assert "applied 0001_events.sql" in out
    assert "SELECT create_distributed_table('matches', 'match_id', colocate_with => 'none');" in out
    check_the_plan(await placements(fresh))
    assert (again, second.strip()) == (0, "every table is placed already")
    assert (migrated, third.strip()) == (0, "nothing to apply")
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, folder)
    (folder / "0099_notes.sql").write_text(
        "CREATE TABLE notes (match_id uuid NOT NULL REFERENCES matches (match_id), "
        "note text NOT NULL, PRIMARY KEY (match_id, note));\n")
    assert await apply_migrations(fresh, folder) == ["0099_notes.sql"]
    placed = await placements(fresh)
    assert placed["notes"] == ("h", placed["matches"][1], "match_id")


async def test_distribute_refuses_a_database_without_citus(database_url: str):
    """Given a plain Postgres database, when `hearthlog distribute` runs, then it exits 1 naming
    the missing extension, and changes nothing."""
    code, out = await hearthlog("distribute", "--database-url", database_url)
    assert code == 1 and "no citus extension" in out
    with pytest.raises(NotCitus):
        await distribute(database_url)


async def test_distribute_moves_the_matches_of_a_database_already_in_use(fresh: str):
    """Given a cluster database migrated and used as one Postgres (finished matches of each game,
    a tournament), when `hearthlog distribute` runs, then its rows are on the shards (none left
    in the coordinator's own tables): every match exports and verifies, the tournament reads
    back, and play goes on (a new match opened, joined and started)."""
    await apply_migrations(fresh)
    pool = await create_pool(fresh, min_size=1, max_size=4)
    store = PostgresStore(pool)
    try:
        ids = [await store_played(store, book, play(50 + n, game=book))
               for n, book in enumerate(sorted(GAMES.values(), key=lambda b: b.id))]
        await store.announcer.drain()
        tournament = await pool.fetchval(
            """INSERT INTO tournaments (tournament_id, name, settings, status, seed,
                seed_commitment, organizer_token_hash)
            VALUES (gen_random_uuid(), 'Cup', '{}', 'registering', $1, 'c', 'h')
            RETURNING tournament_id::text""", bytes(32))
    finally:
        await pool.close()

    conn = await asyncpg.connect(fresh)
    held = await conn.fetchval("SELECT pg_relation_size('events')")
    await conn.close()
    code, out = await hearthlog("distribute", "--database-url", fresh)

    assert held > 0 and code == 0, out
    check_the_plan(await placements(fresh))
    pool = await create_pool(fresh, min_size=1, max_size=4)
    try:
        store = PostgresStore(pool)
        exported = [f async for f in store.finished_matches(ExportFilter())]
        assert sorted(f.row.match_id for f in exported) == sorted(ids)
        assert all(verify(document(f)).ok for f in exported)
        assert (await TournamentStore(pool).get(tournament)) is not None
        assert await pool.fetchval("SELECT pg_relation_size('events')") == 0  # moved, not copied
        service = MatchService(store)
        created = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
        for name in ("Ash", "Bryn"):
            await service.join(created.match_id, schemas.JoinSeat(name=name))
        started = await service.start(created.match_id, created.host_token)
        assert started.status == "playing"
        await store.announcer.drain()
    finally:
        await pool.close()
