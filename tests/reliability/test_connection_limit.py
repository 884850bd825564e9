"""A database with no room for another session: when Postgres refuses the connections a
server's pool grows by ("sorry, too many clients already", as when several servers' pools share
one database's max_connections), the requests that needed one answer 503 with Retry-After,
never 500; those answered 201 are stored; once there is room again every request succeeds.

The test runs its own embedded Postgres (outage.py), since it takes every one of its sessions.
"""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
import pytest

from service.store.migrations import apply_migrations
from service.store.provisioning import create_database
from tests.reliability.outage import OwnPostgres
from tests.servers import serving

REQUESTS = 40
GAME = {"game": "wick-and-ember", "seats": 2}


@pytest.fixture
def own_postgres(tmp_path):
    """An embedded Postgres of this test's own, deleted afterwards."""
    postgres = OwnPostgres(tmp_path)
    yield postgres
    postgres.close()


async def take_every_session(url: str) -> list[asyncpg.Connection]:
    """Connect until Postgres says it has no room: the connections that fill it."""
    held = []
    while True:
        try:
            held.append(await asyncpg.connect(url))
        except asyncpg.TooManyConnectionsError:
            return held


async def create_at_once(server: str) -> list[httpx.Response]:
    """REQUESTS matches created at the same time, each on its own connection."""
    async def create() -> httpx.Response:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            return await client.post("/matches", json=GAME)

    return await asyncio.gather(*(create() for _ in range(REQUESTS)))


async def test_a_pool_refused_new_sessions_answers_503_and_stores_what_it_acknowledged(
        own_postgres):
    """Given a server whose database has no free session left, when forty matches are created
    at once, then each answer is 201 or 503 with Retry-After and a message (some are 503: the
    pool could not grow), none is 500 and nothing was logged as unhandled; every 201 match is
    there; and once the sessions are freed, forty more are all created."""
    url = await create_database(own_postgres.url, "full")
    await apply_migrations(url)
    with serving(url) as server:
        held = await take_every_session(own_postgres.url)
        try:
            answers = await create_at_once(server)
        finally:
            await asyncio.gather(*(conn.close() for conn in held))
        statuses = {answer.status_code for answer in answers}
        refused = [a for a in answers if a.status_code == 503]
        assert statuses <= {201, 503}, [a.text for a in answers if a.status_code not in (201, 503)]
        assert refused, "every request found a pooled session: the limit was never reached"
        assert all(a.headers.get("retry-after") == "1" and "database is unavailable"
                   in a.json()["detail"] for a in refused), [a.text for a in refused]
        created = [a.json()["match_id"] for a in answers if a.status_code == 201]
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            found = [(await client.get(f"/matches/{m}")).status_code for m in created]
        assert found == [200] * len(created)
        afterwards = await create_at_once(server)
        assert [a.status_code for a in afterwards] == [201] * REQUESTS
        output = server.output.read_text(errors="replace")
    assert "unhandled" not in output and "Traceback" not in output, output[-3000:]
    assert "database unavailable: TooManyConnectionsError" in output
