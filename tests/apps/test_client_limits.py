"""Per-key limits at the front: an app's quota is its own, an unknown key is refused and serves
nothing, and every answer carries the RateLimit fields (draft-ietf-httpapi-ratelimit-headers),
counting down and starting again with the window.

The front (ClientLimits) is driven directly, around an app that answers 200, with its own clock
and a table of keys in place of the database: no server, no sleeps.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from service.apps import App
from service.http.limits import ClientLimits, Limits
from tests.core.sources import StoppedClock

KEYS = {"key-one": App("1111", 3, 2), "key-two": App("2222", 5, 2)}
ADDRESS_LIMIT = 4


class Answering:
    """An app that answers 200 and counts what it served."""

    def __init__(self) -> None:
        self.served = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.served += 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


async def known(key: str) -> App | None:
    """The app of a key, from the table."""
    return KEYS.get(key)


def front(clock: StoppedClock) -> tuple[ClientLimits, Answering]:
    """The per-client limits with small address quotas, over an answering app."""
    inner = Answering()
    limits = Limits(requests_per_minute=ADDRESS_LIMIT, matches_per_hour=2)
    return ClientLimits(inner, limits, lambda: known, clock), inner


async def ask(limits: ClientLimits, path: str = "/games", key: str | None = None,
              method: str = "GET", address: str = "10.0.0.1") -> tuple[int, dict[str, str]]:
    """One request through the front: its status and its headers."""
    headers = [(b"x-api-key", key.encode())] if key is not None else []
    scope = {"type": "http", "method": method, "path": path, "headers": headers,
             "client": (address, 40000)}
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    await limits(scope, receive, send)
    start = sent[0]
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}


def clock() -> StoppedClock:
    """A stopped clock at a fixed time."""
    return StoppedClock(datetime(2026, 1, 1, 12, tzinfo=UTC))


async def test_two_apps_and_an_address_each_hit_their_own_limit():
    """Given two apps (3 and 5 requests a minute) and an address (4) on one front, when each
    sends until refused, then each is refused exactly past its own quota, and the others are
    still served."""
    limits, inner = front(clock())
    for key, quota in (("key-one", 3), ("key-two", 5), (None, ADDRESS_LIMIT)):
        statuses = [(await ask(limits, key=key))[0] for _ in range(quota + 1)]
        assert statuses == [200] * quota + [429], (key, statuses)
    assert inner.served == 3 + 5 + ADDRESS_LIMIT
    assert (await ask(limits, address="10.0.0.2"))[0] == 200  # another address: its own


async def test_an_app_is_not_limited_by_the_address_it_calls_from():
    """Given an address that has spent its quota, when an app's key comes from that address,
    then the app is served under its own quota."""
    limits, _ = front(clock())
    for _ in range(ADDRESS_LIMIT):
        await ask(limits)
    assert (await ask(limits))[0] == 429
    assert (await ask(limits, key="key-one"))[0] == 200


async def test_matches_created_count_under_the_apps_own_hourly_quota():
    """Given an app allowed 2 matches an hour, when it creates 3, then the third is 429 naming
    the app's quota rather than the server's variable."""
    limits, _ = front(clock())
    made = [await ask(limits, "/matches", key="key-two", method="POST") for _ in range(3)]
    assert [status for status, _ in made] == [200, 200, 429]
    assert made[2][1]["ratelimit"].endswith('"matches";r=0;t=3600')


async def test_an_unknown_key_is_401_and_serves_nothing():
    """Given a key no app has, when it is sent, then 401 naming X-Api-Key, the app behind the
    front never runs, and the request counts under its address."""
    limits, inner = front(clock())
    status, headers = await ask(limits, key="made-up")
    assert status == 401 and inner.served == 0
    assert headers["ratelimit"].startswith(f'"requests";r={ADDRESS_LIMIT - 1};')


async def test_every_answer_carries_the_ratelimit_fields_counting_down_then_starting_again():
    """Given an app of 3 requests a minute, when it sends 4, then each answer's RateLimit says
    one fewer left (0 on the 429, which also has Retry-After), its policy says the app's quota;
    when the clock passes the minute, the count starts again from the quota."""
    stepped = clock()
    limits, _ = front(stepped)
    answers = []
    for _ in range(4):
        answers.append(await ask(limits, key="key-one"))
        stepped.advance(10)
    remaining = [headers["ratelimit"].split(";")[1] for _, headers in answers]
    assert remaining == ["r=2", "r=1", "r=0", "r=0"]
    assert [headers["ratelimit"].split(",")[0].split(";")[2] for _, headers in answers] == [
        "t=60", "t=50", "t=40", "t=30"]
    assert answers[3][0] == 429 and answers[3][1]["retry-after"] == "30"
    assert {headers["ratelimit-policy"] for _, headers in answers} == {
        '"requests";q=3;w=60, "matches";q=2;w=3600'}
    stepped.advance(30)
    status, headers = await ask(limits, key="key-one")
    assert status == 200 and headers["ratelimit"].startswith('"requests";r=2;t=60')


async def test_health_is_not_counted_but_still_says_where_its_client_stands():
    """Given an address that has made one request, when it asks /health twice, then both carry
    the fields and neither takes from the quota."""
    limits, _ = front(clock())
    await ask(limits)
    for _ in range(2):
        status, headers = await ask(limits, "/health")
        assert status == 200
        assert headers["ratelimit"].startswith(f'"requests";r={ADDRESS_LIMIT - 1};')
        assert headers["ratelimit-policy"] == (f'"requests";q={ADDRESS_LIMIT};w=60, '
                                               '"matches";q=2;w=3600')


async def test_a_key_that_cannot_be_checked_while_the_database_is_away_is_503():
    """Given the database away when a key not yet known arrives, then 503 with Retry-After and
    the RateLimit fields, and nothing is served."""
    import asyncpg

    async def away(key: str) -> App | None:
        raise asyncpg.CannotConnectNowError("the database system is starting up")

    inner = Answering()
    limits = ClientLimits(inner, Limits(), lambda: away, clock())
    status, headers = await ask(limits, key="key-one")
    assert status == 503 and headers["retry-after"] == "1" and "ratelimit" in headers
    assert inner.served == 0
