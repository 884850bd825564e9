"""Limits under abuse: a stalled body is cut, a broken one refused, streams capped per process and
per client, and while a cap is reached the server still answers health, views and commands.

The server here runs with small limits (docs/limits.md names each variable); the load test with
thousands of clients is test_overload.py (slow).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack
from datetime import datetime, timedelta

import httpx
import pytest

from tests.reliability.crowd import HALF_BODY, raw, status_of
from tests.reliability.logcheck import access_lines
from tests.reliability.tables import Table, next_move, open_table, send
from tests.servers import Server, serving

LIMITS = {"HEARTHLOG_BODY_SECONDS": "1", "HEARTHLOG_STREAMS": "3",
          "HEARTHLOG_STREAMS_PER_CLIENT": "2"}


@pytest.fixture(scope="module")
def limited(server_database: str) -> Iterator[Server]:
    """A server of its own with small limits."""
    with serving(server_database, env=LIMITS) as running:
        yield running


@pytest.fixture(scope="module")
async def table(limited) -> Table:
    """A started two-seat match on that server."""
    return await open_table([limited], 2, random.Random(11))


def client_from(server: str, address: str) -> httpx.AsyncClient:
    """A client whose connections come from another loopback address (another client)."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=server, transport=transport, timeout=10)


async def open_stream(stack: AsyncExitStack, client: httpx.AsyncClient, match_id: str
                      ) -> httpx.Response:
    """Open the match's stream and keep it open until the stack closes; its answer."""
    return await stack.enter_async_context(client.stream("GET", f"/matches/{match_id}/stream"))


async def still_served(table: Table) -> None:
    """Health, a view and a command each answered normally."""
    spectator = table.spectator()
    assert (await spectator.get("/health")).status_code == 200
    assert (await spectator.get(f"/matches/{table.match_id}/view")).status_code == 200
    move = await next_move(table)
    assert isinstance(move, tuple), move
    assert (await send(table, *move)).status_code == 200


def refused_with_retry(answer: httpx.Response, status: int, names: str) -> None:
    """The answer is ``status`` with Retry-After and a message naming the limit's variable."""
    assert answer.status_code == status, answer.text
    assert int(answer.headers["retry-after"]) >= 1
    assert names in answer.json()["detail"]


async def test_a_stalled_body_is_answered_408_and_its_connection_closed(limited, table):
    """Given a client that sends half a body and stalls, when the body time passes, then 408
    and the connection is closed; the server answers others all along."""
    stalled = asyncio.ensure_future(raw(limited.port, HALF_BODY, seconds=15))
    await still_served(table)
    answer = await stalled
    assert status_of(answer) == 408, answer[:200]
    assert b"HEARTHLOG_BODY_SECONDS" in answer


async def test_a_malformed_chunked_body_gets_400_naming_the_problem(limited):
    """Given a chunked body whose chunk size is not hexadecimal, then 400, not 500."""
    answer = await raw(limited.port, b"POST /matches HTTP/1.1\r\nHost: x\r\n"
                       b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                       b"ZZ\r\n{}\r\n0\r\n\r\n", seconds=5)
    assert status_of(answer) == 400, answer[:300]
    assert b"chunked" in answer


async def test_a_client_leaving_mid_body_leaves_no_500_and_no_traceback(limited):
    """Given clients that hang up halfway through their bodies, then the server answers each
    (its access line is the sign it is done with the request: waited for, with a deadline) and
    the log has no 500 line and no traceback."""
    before = len(posted(limited))
    for _ in range(20):
        _, writer = await asyncio.open_connection("127.0.0.1", limited.port)
        writer.write(HALF_BODY)
        await writer.drain()
        writer.close()
    deadline = time.monotonic() + 10
    while len(posted(limited)) < before + 20:
        assert time.monotonic() < deadline, "the server did not finish with every hung-up body"
        await asyncio.sleep(0.05)
    assert (await raw(limited.port, b"GET /health HTTP/1.1\r\nHost: x\r\n"
                      b"Connection: close\r\n\r\n")).startswith(b"HTTP/1.1 200")
    output = limited.output.read_text()
    assert "Traceback" not in output and '"status":500' not in output


def posted(server: Server) -> list[dict]:
    """The access lines of the server's POST /matches requests so far."""
    return [line for line in access_lines(server.output)
            if (line["method"], line["path"]) == ("POST", "/matches")]


async def test_streams_past_the_per_client_cap_get_429_and_past_the_process_cap_503(
    limited, table
):
    """Given streams at both caps, then one more from the same client is 429 and one from a
    new client 503, each with Retry-After naming its limit; health, views and commands are
    still answered; a stream closed gives its slot back."""
    async with AsyncExitStack() as stack:
        first = client_from(limited, "127.0.0.1")
        other = client_from(limited, "127.0.0.2")
        for client in (first, other):
            stack.push_async_callback(client.aclose)
        for client in (first, first, other):
            assert (await open_stream(stack, client, table.match_id)).status_code == 200
        refused_with_retry(await first.get(f"/matches/{table.match_id}/stream"), 429,
                           "HEARTHLOG_STREAMS_PER_CLIENT")
        async with client_from(limited, "127.0.0.3") as third:
            refused_with_retry(await third.get(f"/matches/{table.match_id}/stream"), 503,
                               "HEARTHLOG_STREAMS")
        await still_served(table)
    async with AsyncExitStack() as stack:
        again = client_from(limited, "127.0.0.1")
        stack.push_async_callback(again.aclose)
        for _ in range(2):
            assert (await reopened(stack, again, table.match_id)).status_code == 200


async def reopened(stack: AsyncExitStack, client: httpx.AsyncClient, match_id: str
                   ) -> httpx.Response:
    """A stream opened once the server has seen the closed ones go (it frees their slots when
    it notices the connection end: waited for, up to 10 s)."""
    for _ in range(100):
        answer = await open_stream(stack, client, match_id)
        if answer.status_code != 429:
            return answer
        await answer.aclose()
        await asyncio.sleep(0.1)
    return answer



@pytest.fixture(scope="module")
def crowded(server_database: str) -> Iterator[Server]:
    """A server of its own that lets one match have two followers."""
    with serving(server_database, env={"HEARTHLOG_STREAMS_PER_MATCH": "2"}) as running:
        yield running


async def test_a_match_past_its_followers_cap_gets_429_while_other_matches_are_followed(
    crowded,
):
    """Given a match followed by two clients, the per-match cap, when a third client asks to
    follow it, then 429 with Retry-After naming HEARTHLOG_STREAMS_PER_MATCH; another match is
    still followed, the match itself still plays; a stream closed gives its slot back."""
    followed = await open_table([crowded], 2, random.Random(21))
    other = await open_table([crowded], 2, random.Random(22))
    async with AsyncExitStack() as stack:
        clients = [client_from(crowded, f"127.0.0.{n}") for n in (1, 2, 3)]
        for client in clients:
            stack.push_async_callback(client.aclose)
        for client in clients[:2]:
            assert (await open_stream(stack, client, followed.match_id)).status_code == 200
        refused_with_retry(await clients[2].get(f"/matches/{followed.match_id}/stream"), 429,
                           "HEARTHLOG_STREAMS_PER_MATCH")
        assert (await open_stream(stack, clients[2], other.match_id)).status_code == 200
        await still_served(followed)
    async with AsyncExitStack() as stack:
        again = client_from(crowded, "127.0.0.3")
        stack.push_async_callback(again.aclose)
        assert (await reopened(stack, again, followed.match_id)).status_code == 200


@pytest.fixture(scope="module")
def rated(server_database: str) -> Iterator[Server]:
    """A server of its own with small per-client request and creation limits."""
    env = {"HEARTHLOG_REQUESTS_PER_MINUTE": "30", "HEARTHLOG_MATCHES_PER_HOUR": "3"}
    with serving(server_database, env=env) as running:
        yield running


async def test_a_client_past_its_matches_per_hour_gets_429_and_others_still_create(rated):
    """Given a client that created its 3 matches this hour, when it creates a fourth, then 429
    with Retry-After naming HEARTHLOG_MATCHES_PER_HOUR, and nothing is created; another client
    still creates."""
    body = {"game": "wick-and-ember", "seats": 2}
    async with client_from(rated, "127.0.0.2") as greedy, client_from(rated, "127.0.0.5") as other:
        for _ in range(3):
            assert (await greedy.post("/matches", json=body)).status_code == 201
        before = len((await other.get("/matches", params={"limit": 200})).json()["matches"])
        refused_with_retry(await greedy.post("/matches", json=body), 429,
                           "HEARTHLOG_MATCHES_PER_HOUR")
        assert len((await other.get("/matches", params={"limit": 200})).json()["matches"]) == before
        assert (await other.post("/matches", json=body)).status_code == 201


async def test_a_client_past_its_requests_per_minute_gets_429_but_health_still_answers(rated):
    """Given a client that sent its 30 requests this minute, then its next one (a known route
    or not) is 429 with Retry-After naming HEARTHLOG_REQUESTS_PER_MINUTE; /health still answers
    it, and another client is served."""
    async with client_from(rated, "127.0.0.3") as busy, client_from(rated, "127.0.0.4") as other:
        for _ in range(30):
            assert (await busy.get("/games")).status_code == 200
        refused_with_retry(await busy.get("/games"), 429, "HEARTHLOG_REQUESTS_PER_MINUTE")
        refused_with_retry(await busy.get("/no-such-route"), 429, "HEARTHLOG_REQUESTS_PER_MINUTE")
        assert (await busy.get("/health")).status_code == 200
        assert (await other.get("/games")).status_code == 200


@pytest.fixture(scope="module")
def lapsing(server_database: str) -> Iterator[Server]:
    """A server whose lobbies expire as soon as they open (HEARTHLOG_LOBBY_HOURS=0)."""
    with serving(server_database, env={"HEARTHLOG_LOBBY_HOURS": "0"}) as running:
        yield running


async def test_a_lobby_past_its_time_cannot_be_joined_or_started_and_says_when_it_ended(
    lapsing, limited
):
    """Given a lobby whose time is over, when a player joins or the host starts, then 410 naming
    when it expired and HEARTHLOG_LOBBY_HOURS, and it stays empty; a lobby on a server with
    the default of 24 hours says it expires 24 hours after its creation, and can be joined."""
    async with httpx.AsyncClient(base_url=lapsing) as client:
        created = (await client.post("/matches", json={"game": "wick-and-ember", "seats": 2})).json()
        match = f"/matches/{created['match_id']}"
        joined = await client.post(f"{match}/seats", json={"name": "Ash"})
        started = await client.post(f"{match}/start",
                                    headers={"authorization": f"Bearer {created['host_token']}"})
        for answer in (joined, started):
            assert answer.status_code == 410, answer.text
            assert "expired at" in answer.json()["detail"]
            assert "HEARTHLOG_LOBBY_HOURS" in answer.json()["detail"]
        assert (await client.get(match)).json()["players"] == []
    async with httpx.AsyncClient(base_url=limited) as client:
        created = (await client.post("/matches", json={"game": "wick-and-ember", "seats": 2})).json()
        summary = created["match"]
        opened = datetime.fromisoformat(summary["created_at"])
        assert datetime.fromisoformat(summary["expires_at"]) - opened == timedelta(hours=24)
        joined = await client.post(f"/matches/{created['match_id']}/seats", json={"name": "Ash"})
        assert joined.status_code == 201
