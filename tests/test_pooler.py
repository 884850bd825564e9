"""Behind PgBouncer in transaction mode, set up as docs/scaling.md says: the pools go through the
pooler with no statement cache (``--no-statement-cache``), while the LISTEN session and the
migrations take a direct connection (``--listen-database-url``), which a pooler cannot give them.

On a fresh database the server migrates on the direct connection (no advisory lock is left held
by a pooled session), then a whole match (two seats played over HTTP and a bot), a stream
following it to the end and its exports all go through the pooler, with never a 500. Before the
switches existed, the server's pools prepared statements a pooled session handed to other
clients: 426 of 441 answers of a short storm were 500 ("prepared statement __asyncpg_stmt_a__
does not exist").
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest

from service.store.provisioning import create_database, create_pool, drop_database
from tests.api.players import Player, open_match
from tests.live.stream_client import Follower, finished
from tests.pooler import bouncer
from tests.reliability.logcheck import access_lines
from tests.servers import launch, stop
from tests.store import batched

pytestmark = pytest.mark.slow
FAST = {"HEARTHLOG_BOT_DELAY": "0.02", "HEARTHLOG_SWEEP_SECONDS": "0.2",
        "HEARTHLOG_HEARTBEAT_SECONDS": "1"}
PLAY_SECONDS = 120


@pytest.fixture
async def empty_database(postgres_server_url: str) -> AsyncIterator[tuple[str, str]]:
    """A new database with nothing in it (the server migrates it): its name and direct URL."""
    name = f"pooled_{uuid.uuid4().hex[:12]}"
    url = await create_database(postgres_server_url, name)
    yield name, url
    await drop_database(postgres_server_url, name)


async def direct_value(url: str, query: str) -> object:
    """One value read on a direct connection."""
    connection = await asyncpg.connect(url)
    try:
        return await connection.fetchval(query)
    finally:
        await connection.close()


async def test_a_whole_match_a_stream_and_exports_through_pgbouncer_in_transaction_mode(
    postgres_server_url: str, empty_database: tuple[str, str]
):
    """Given PgBouncer in transaction mode and a server started through it with
    --no-statement-cache and a direct --listen-database-url, when two seats and a bot play a
    match to its end while a spectator follows its stream, then every answer is a success,
    the stream shows the end, the export, the many-match export and the verification are
    served through the pooler, the listener is not the pooler's client, and the migrations
    left no advisory lock held."""
    name, direct = empty_database
    with bouncer(postgres_server_url) as pooler:
        server = launch(pooler.url(name), env=FAST,
                        args=("--listen-database-url", direct, "--no-statement-cache"))
        try:
            assert await direct_value(direct, "SELECT count(*) FROM schema_migrations") > 0
            assert await direct_value(
                direct, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == 0
            created = await open_match(server, 3, options={"ember_target": 3})
            match_id = created["match_id"]
            players = [Player(server, match_id, seat) for seat in ("Ash", "Bryn")]
            for player in players:
                await player.join()
            async with httpx.AsyncClient(base_url=server, timeout=30) as host:
                bot = await host.post(f"/matches/{match_id}/seats", json={"bot": "random"})
                assert bot.status_code == 201, bot.text
                started = await host.post(
                    f"/matches/{match_id}/start",
                    headers={"authorization": f"Bearer {created['host_token']}"})
                assert started.status_code == 200, started.text
            follower = Follower(server, match_id)
            rng = random.Random(7)
            try:
                await asyncio.wait_for(asyncio.gather(
                    follower.follow(until=finished),
                    *(player.play_randomly(rng) for player in players)), PLAY_SECONDS)
                clients = pooler.clients()
            finally:
                await follower.close()
                for player in players:
                    await player.close()
            assert finished(follower.updates[-1])
            async with httpx.AsyncClient(base_url=server, timeout=60) as client:
                export = await client.get(f"/matches/{match_id}/export")
                verified = await client.get(f"/matches/{match_id}/verification")
                many = await client.get("/exports/matches")
                csv = await client.get("/exports/matches", params={"format": "csv"})
            assert export.status_code == 200 and export.json()["header"]["result"], export.text
            assert verified.status_code == 200 and verified.json()["ok"], verified.text
            assert many.status_code == 200 and match_id in many.text, many.text
            assert csv.status_code == 200 and match_id in csv.text, csv.text
        finally:
            stop(server)
        statuses = [line["status"] for line in access_lines(server.output)]
        output = server.output.read_text(errors="replace")
        server.output.unlink(missing_ok=True)
    names = {client["application_name"] for client in clients}
    assert "hearthlog" in names and "hearthlog-listen" not in names, names
    assert [s for s in statuses if s >= 500] == [] and "Traceback" not in output, output[-3000:]


@pytest.mark.parametrize("case", [batched.appends_at_once_go_in_one_batch,
                                  batched.a_refused_append_writes_nothing_and_the_rest_land,
                                  batched.a_failing_append_fails_alone],
                         ids=["together", "one refused", "one failing"])
async def test_appends_sent_together_through_pgbouncer_in_transaction_mode(
    postgres_server_url: str, database_url: str, case: Callable[[asyncpg.Pool], Awaitable[None]]
):
    """Given a pool through PgBouncer in transaction mode with no statement cache, then a batch
    of appends (one pipelined transaction, tests/store/batched.py) behaves as on a direct
    connection: each statement's own answer, a failing one sent again alone."""
    name = urlsplit(database_url).path.lstrip("/")
    with bouncer(postgres_server_url) as pooler:
        pool = await create_pool(pooler.url(name), statement_cache_size=0, min_size=1,
                                 max_size=4)
        try:
            await case(pool)
        finally:
            await pool.close()
