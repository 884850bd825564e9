"""Making a player and asking who a token is: a name follows the one name rule and no two
players' names look alike; a bad request is a 4xx naming the problem and makes nobody."""

from __future__ import annotations

import pytest
from litestar.testing import AsyncTestClient

from service.http.app import create_app
from tests.core.sources import StoppedClock, counted_seeds
from tests.players.support import Client, bearer, count, player


async def test_a_new_player_gets_its_id_name_and_a_token_that_says_who_it_is(client: Client):
    made = await player(client, "  Ash   Wick ")

    assert made["name"] == "Ash Wick" and len(made["token"]) >= 43
    me = await client.get("/players/me", headers=bearer(made["token"]))
    assert me.status_code == 200, me.text
    assert me.json()["player_id"] == made["player_id"] and me.json()["name"] == "Ash Wick"
    page = await client.get(f"/players/{made['player_id']}")
    assert page.json() == me.json() and "token" not in page.text


@pytest.mark.parametrize(("name", "named"), [
    ("", "length >= 1"),
    ("   ", "blank"),
    ("Ash\u200b", "zero-width"),
    ("Ash\U000e0041", "U+E0041"),
    ("A" * 33, "length <= 32"),
])
async def test_a_bad_name_is_refused_400_naming_it_and_makes_nobody(
    client: Client, database_url: str, name: str, named: str
):
    refused = await client.post("/players", json={"name": name})

    assert refused.status_code == 400 and "'name'" in refused.json()["detail"]
    assert named in refused.json()["detail"]
    assert await count(database_url, "players") == 0


async def test_a_body_without_a_name_or_with_a_stray_field_is_refused_400(
    client: Client, database_url: str
):
    assert (await client.post("/players", json={})).status_code == 400
    stray = await client.post("/players", json={"name": "Ash", "token": "mine"})
    assert stray.status_code == 400 and "token" in stray.json()["detail"]
    assert await count(database_url, "players") == 0


@pytest.mark.parametrize("again", ["Ash", "ASH", "\u0410sh", "\uff21\uff53\uff48"])  # Cyrillic A; full-width Ash
async def test_a_name_like_another_players_is_refused_409_naming_the_clash(
    client: Client, database_url: str, again: str
):
    await player(client, "Ash")

    refused = await client.post("/players", json={"name": again})

    assert refused.status_code == 409 and "'Ash'" in refused.json()["detail"]
    assert await count(database_url, "players") == 1


async def test_an_unknown_or_missing_token_is_401_naming_the_problem(client: Client):
    await player(client, "Ash")

    unknown = await client.get("/players/me", headers=bearer("not-a-player-token"))
    missing = await client.get("/players/me")
    malformed = await client.get("/players/me", headers={"Authorization": "Basic abc"})

    assert unknown.status_code == 401 and "no player's" in unknown.json()["detail"]
    assert missing.status_code == 401 and "player token" in missing.json()["detail"]
    assert malformed.status_code == 401 and "Bearer" in malformed.json()["detail"]


async def test_an_unknown_player_is_404(client: Client):
    for player_id in ("00000000-0000-4000-8000-000000000000", "not-an-id"):
        missing = await client.get(f"/players/{player_id}")
        assert missing.status_code == 404 and player_id in missing.json()["detail"]


async def test_a_player_made_with_an_apps_key_is_that_apps(
    database_url: str, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("HEARTHLOG_OPERATOR_TOKEN", "operator")
    app = create_app(database_url, seeds=counted_seeds("players"), clock=StoppedClock())
    async with AsyncTestClient(app) as client:
        club = await client.post("/apps", json={"name": "Club"}, headers=bearer("operator"))
        assert club.status_code == 201, club.text
        key = {"X-Api-Key": club.json()["key"]}

        made = await client.post("/players", json={"name": "Ash"}, headers=key)
        unknown = await client.post("/players", json={"name": "Bryn"},
                                    headers={"X-Api-Key": "no-such-key"})

    assert made.status_code == 201 and unknown.status_code == 401
    assert await count(database_url, f"players WHERE app_id = '{club.json()['app_id']}'") == 1
    assert await count(database_url, "players") == 1
