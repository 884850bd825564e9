"""The schema stays shardable by match_id (Citus), and the command path touches one match per
statement: both read from Postgres itself, and each check shown to catch what it must; then the
same command path run on a real Citus cluster (tests/citus.py), each statement sent to one shard."""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg

from service import schemas
from service.clock import Due
from service.live.bots import BotRunner
from service.matches import MatchService
from service.store import PostgresStore
from service.store.provisioning import create_pool, init_connection
from service.store.sharding import citus_statements, placement
from tests.citus import SHARDS
from tests.store.shardable import (
    TABLES,
    PlanCheck,
    Recorded,
    citus_problems,
    citus_tasks,
    match_tables,
    schema_problems,
)

BAD_TABLES = """
CREATE TABLE scratch.matches (match_id uuid PRIMARY KEY);
CREATE TABLE scratch.keyless (id bigint PRIMARY KEY, match_id uuid NOT NULL);
CREATE TABLE scratch.wide_unique (match_id uuid NOT NULL, name text NOT NULL UNIQUE);
CREATE TABLE scratch.loose_child (match_id uuid NOT NULL, parent uuid NOT NULL
    REFERENCES scratch.matches (match_id), PRIMARY KEY (match_id, parent));
CREATE TABLE scratch.settings (name text PRIMARY KEY, value text);
"""


async def test_the_migrated_schema_is_shardable_by_match_id(pool: asyncpg.Pool):
    """Given every migration applied, when the catalog is read, then every table is placed,
    every key of a match table includes match_id and every foreign key is co-located."""
    async with pool.acquire() as conn:
        assert await schema_problems(conn) == []
        tables = [row["relname"] for row in await conn.fetch(TABLES, "public")]
        assert await match_tables(conn) >= {"matches", "events", "heads", "commands"}
    calls = citus_statements(tables)
    assert len(calls) == len(tables)
    references = [call for call in calls if "create_reference_table" in call]
    assert "SELECT create_reference_table('schema_migrations');" in references
    assert calls[:len(references) + 1] == [*references,  # reference tables first, then matches
                                           "SELECT create_distributed_table('matches', "
                                           "'match_id', colocate_with => 'none');"]
    assert ("SELECT create_distributed_table('tournaments', 'tournament_id', "
            "colocate_with => 'none');") in calls


async def test_the_schema_check_names_a_key_without_match_id_a_loose_foreign_key_and_an_unplaced_table(
    pool: asyncpg.Pool,
):
    """Given a scratch schema with a primary key and a unique key lacking match_id, a foreign
    key that is not keyed by match_id and a table with no match_id not declared anywhere,
    when it is checked, then each is named; declared a reference table, the last one passes."""
    async with pool.acquire() as conn:
        await conn.execute("CREATE SCHEMA scratch" + ";" + BAD_TABLES)
        problems = await schema_problems(conn, "scratch")
        declared = await schema_problems(conn, "scratch", lambda t: (
            ("reference", None) if t == "settings" else placement(t)))
    assert problems == [
        "unique key keyless_pkey of keyless lacks match_id",
        "foreign key loose_child_parent_fkey of loose_child to scratch.matches is not "
        "co-located: both sides must be keyed by match_id, and the key must include it",
        "table settings has no match_id column: distribute it by match_id or declare it in "
        "service/store/sharding.py",
        "unique key wide_unique_name_key of wide_unique lacks match_id",
    ]
    assert declared == problems[:2] + problems[3:]


async def recorded_command_path(database_url: str) -> list[Recorded]:
    """Every statement a create, two joins, a start, a command, its retry, a time-out play (from
    a second service that loads the match afresh) and a concession that ends the match ran."""
    recorded: list[Recorded] = []

    async def record(conn: asyncpg.Connection) -> None:
        await init_connection(conn)
        conn.add_query_logger(lambda q: recorded.append(Recorded(q.query, tuple(q.args or ()))))

    pool = await create_pool(database_url, init=record)
    try:
        service = MatchService(PostgresStore(pool))
        created = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2,
                                                           turn_seconds=30))
        mid = created.match_id
        seats = [await service.join(mid, schemas.JoinSeat(name=n)) for n in ("Ash", "Bryn")]
        await service.start(mid, created.host_token)
        offers = [(s.token, (await service.legal_actions(mid, s.token)).actions) for s in seats]
        token, actions = next((token, actions) for token, actions in offers if actions)
        action = actions[0].command
        body = schemas.SendCommand(command=action, command_id="first")
        first = await service.command(mid, token, body)
        retried = await service.command(mid, token, body)
        assert first[0] == retried[0] == 200 and first[1][:12] == retried[1][:12]  # same version
        fresh = MatchService(PostgresStore(pool))
        loaded = await fresh.cache.load(mid)
        seat = min(loaded.game.to_act(loaded.state.game))
        assert await BotRunner(fresh, 0).act(loaded, Due(at=datetime.now(UTC), seat=seat,
                                                          kind="clock"))
        ended = await fresh.concede(mid, seats[0].token)
        assert ended.view.status == "finished"
        await service.store.announcer.drain()
        await fresh.store.announcer.drain()
    finally:
        await pool.close()
    return recorded


async def test_every_statement_of_the_command_path_pins_one_match(database_url: str):
    """Given the statements a whole command path ran, when each is EXPLAINed with its own
    parameters, then every scan, update and insert on a match table is pinned to one match_id."""
    recorded = await recorded_command_path(database_url)
    conn = await asyncpg.connect(database_url)
    await init_connection(conn)  # the parameters as the service's pool encodes them
    try:
        check = await PlanCheck.load(conn, await match_tables(conn))
        problems = [p for statement in recorded for p in await check.problems(statement)]
    finally:
        await conn.close()
    assert problems == []
    touched = " ".join(statement.query for statement in recorded)
    for table in ("INSERT INTO events", "UPDATE heads", "INSERT INTO commands", "seat_tokens"):
        assert table in touched, f"the recording missed {table}"


async def test_the_statement_check_names_a_scan_of_many_matches_and_an_insert_from_another(
    pool: asyncpg.Pool,
):
    """Given statements that read every match, several matches, or copy rows across matches,
    when they are checked, then each is named."""
    one, two = "00000000-0000-0000-0000-000000000001", "00000000-0000-0000-0000-000000000002"
    bad = [
        Recorded("SELECT count(*) FROM events", ()),
        Recorded("SELECT * FROM heads WHERE match_id = ANY($1::uuid[])", ([one, two],)),
        Recorded("UPDATE heads SET version = version + 1 WHERE version = $1", (3,)),
        Recorded("SELECT * FROM events e JOIN heads h ON h.match_id = $2 WHERE e.match_id = $1",
                 (one, two)),
        Recorded("INSERT INTO snapshots (match_id, version, hash, fingerprint, state, checksum) "
                 "SELECT gen_random_uuid(), 1, '', '', '', ''", ()),
    ]
    async with pool.acquire() as conn:
        check = await PlanCheck.load(conn, await match_tables(conn))
        named = [await check.problems(statement) for statement in bad]
    assert [len(problems) > 0 for problems in named] == [True] * len(bad), named
    assert "pins no single match_id" in named[0][0]
    assert "pins several match_ids" in named[3][-1]
    assert "an insert into snapshots takes match_id from" in named[4][0]
    assert "gen_random_uuid" in named[4][0]


async def test_every_statement_of_the_command_path_runs_on_one_shard_of_a_citus_cluster(
    citus_database: str,
):
    """Given a Citus coordinator and two workers, the schema placed by `hearthlog distribute`,
    when the whole command path runs on it (a match from its creation to its end), then every
    statement is accepted, and each one on a distributed table is planned by Citus as tasks of
    one shard each, all on one node (the match's)."""
    recorded = await recorded_command_path(citus_database)
    conn = await asyncpg.connect(citus_database)
    await init_connection(conn)
    try:
        problems = [p for statement in recorded for p in await citus_problems(conn, statement)]
        distributed = [s for s in recorded if await citus_tasks(conn, s)]
        every_match = await citus_problems(conn, Recorded("SELECT count(*) FROM events", ()))
    finally:
        await conn.close()
    assert problems == []
    assert len(distributed) >= 10, "the recording missed the distributed statements"
    assert every_match and f"a job of {SHARDS} tasks" in every_match[0]  # the check bites
