"""Client apps over HTTP: the operator registers one (POST /apps, or `hearthlog app add`), its
key is counted under its own quota on every route, an unknown key is 401 and changes nothing,
and the operator's routes refuse without HEARTHLOG_OPERATOR_TOKEN or without its value.

The app runs in this process on a clean database, with a stopped clock (its windows and its key
cache run by it).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from litestar.testing import AsyncTestClient

from service.apps import CACHE_SECONDS, AppService, NewAppBody
from service.cli.main import main
from service.http.app import create_app
from service.store.apps import AppStore
from tests.core.sources import StoppedClock

OPERATOR = "operator-secret-for-tests"
AS_OPERATOR = {"authorization": f"Bearer {OPERATOR}"}


async def in_thread(argv: list[str]) -> int:
    """`hearthlog ARGV` (it runs its own event loop) beside this test's."""
    return await asyncio.to_thread(main, argv)


@pytest.fixture
def clock() -> StoppedClock:
    """The app's clock."""
    return StoppedClock(datetime(2026, 1, 1, 12, tzinfo=UTC))


@pytest.fixture
async def client(database_url: str, clock: StoppedClock, monkeypatch: pytest.MonkeyPatch
                 ) -> AsyncIterator[AsyncTestClient]:
    """The app with an operator token and small per-address limits."""
    monkeypatch.setenv("HEARTHLOG_OPERATOR_TOKEN", OPERATOR)
    monkeypatch.setenv("HEARTHLOG_REQUESTS_PER_MINUTE", "50")
    async with AsyncTestClient(create_app(database_url, clock=clock)) as made:
        yield made


async def test_an_app_registered_by_the_operator_is_limited_by_its_own_quota(client):
    """Given an app registered with 4 requests a minute, when it sends 5 requests with its
    key, then 4 are served and the fifth is 429 naming the app's quota; the address, counted
    apart, is still served; the list shows the app and never its key."""
    made = await client.post("/apps", json={"name": "Lantern Club", "requests_per_minute": 4},
                             headers=AS_OPERATOR)
    assert made.status_code == 201, made.text
    app = made.json()
    assert app["requests_per_minute"] == 4 and app["matches_per_hour"] == 600
    keyed = {"x-api-key": app["key"]}
    answers = [await client.get("/games", headers=keyed) for _ in range(5)]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 429]
    assert "the app's quota" in answers[4].json()["detail"]
    assert answers[0].headers["ratelimit-policy"] == '"requests";q=4;w=60, "matches";q=600;w=3600'
    assert answers[0].headers["ratelimit"].startswith('"requests";r=3;t=60')
    anonymous = await client.get("/games")
    assert anonymous.status_code == 200
    assert anonymous.headers["ratelimit-policy"].startswith('"requests";q=50;w=60')
    listed = await client.get("/apps", headers=AS_OPERATOR)
    assert [a["name"] for a in listed.json()["apps"]] == ["Lantern Club"]
    assert "key" not in listed.text


async def test_an_unknown_key_is_401_and_creates_nothing(client):
    """Given a key no app has, when it opens a match, then 401 naming X-Api-Key and no match
    was made."""
    refused = await client.post("/matches", json={"game": "wick-and-ember", "seats": 2},
                                headers={"x-api-key": "not-a-key"})
    assert refused.status_code == 401 and "X-Api-Key" in refused.json()["detail"]
    assert "ratelimit" in refused.headers
    assert (await client.get("/matches")).json()["matches"] == []


async def test_a_name_taken_is_409_and_a_bad_quota_400(client):
    """Given an app named Ember Hall, when another registers as 'ember hall', then 409 naming
    it; a quota of 0 is 400; neither is added."""
    first = await client.post("/apps", json={"name": "Ember Hall"}, headers=AS_OPERATOR)
    assert first.status_code == 201
    again = await client.post("/apps", json={"name": "ember hall"}, headers=AS_OPERATOR)
    assert again.status_code == 409 and "ember hall" in again.json()["detail"]
    zero = await client.post("/apps", json={"name": "Zero", "matches_per_hour": 0},
                             headers=AS_OPERATOR)
    assert zero.status_code == 400
    assert len((await client.get("/apps", headers=AS_OPERATOR)).json()["apps"]) == 1


async def test_the_operator_routes_refuse_without_the_operators_token(client):
    """Given a server with an operator token, when /apps is asked without a token or with a
    wrong one, then 401 naming the variable, and nothing is registered."""
    for headers in ({}, {"authorization": "Bearer wrong"}):
        made = await client.post("/apps", json={"name": "Sneaky"}, headers=headers)
        assert made.status_code == 401 and "HEARTHLOG_OPERATOR_TOKEN" in made.json()["detail"]
        assert (await client.get("/apps", headers=headers)).status_code == 401
    assert (await client.get("/apps", headers=AS_OPERATOR)).json()["apps"] == []


async def test_without_the_variable_the_operator_routes_are_403_naming_it(
        database_url, clock, monkeypatch):
    """Given a server started without HEARTHLOG_OPERATOR_TOKEN, when /apps is asked with any
    token, then 403 naming the variable."""
    monkeypatch.delenv("HEARTHLOG_OPERATOR_TOKEN", raising=False)
    async with AsyncTestClient(create_app(database_url, clock=clock)) as client:
        for method in ("get", "post"):
            kwargs = {"json": {"name": "Any"}} if method == "post" else {}
            answer = await getattr(client, method)("/apps", headers=AS_OPERATOR, **kwargs)
            assert answer.status_code == 403, answer.text
            assert "HEARTHLOG_OPERATOR_TOKEN" in answer.json()["detail"]


async def test_an_app_added_from_the_command_line_is_served_by_a_running_server(
        client, database_url, capsys):
    """Given a running server, when `hearthlog app add` registers an app, then its key is
    served at once; `app list` shows it; a second app of that name is refused (exit 1)."""
    assert await in_thread(["app", "add", "Wick Club", "--requests-per-minute", "7",
                            "--database-url", database_url]) == 0
    key = capsys.readouterr().out.split("X-Api-Key): ")[1].strip()
    assert (await client.get("/games", headers={"x-api-key": key})).status_code == 200
    assert await in_thread(["app", "list", "--database-url", database_url]) == 0
    assert "Wick Club  7/min  600/h" in capsys.readouterr().out
    assert await in_thread(["app", "add", "wick club", "--database-url", database_url]) == 1
    assert "registered already" in capsys.readouterr().err


async def test_a_changed_quota_is_seen_once_the_key_cache_expires(pool):
    """Given an app's key identified (and cached), when its quota is changed in the database,
    then the old quota holds until CACHE_SECONDS pass, and the new one after."""
    now = [100.0]
    apps = AppService(AppStore(pool), None, now=lambda: now[0])
    made = await apps.create(NewAppBody(name="Quota Hall", requests_per_minute=10))
    assert (await apps.identify(made.key)).requests_per_minute == 10
    await pool.execute("UPDATE apps SET requests_per_minute = 20")
    now[0] += CACHE_SECONDS - 0.5
    assert (await apps.identify(made.key)).requests_per_minute == 10
    now[0] += 0.5
    assert (await apps.identify(made.key)).requests_per_minute == 20
