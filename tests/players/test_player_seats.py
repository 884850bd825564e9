"""A player takes seats with its token: the seat is recorded as the player's, the player's token
acts for that seat in that match (and in no other), a player takes one seat a table, and a rated
match seats only players and server bots. Each refusal names the problem and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.players.support import Client, bearer, count, opened, player


async def seated(client: Client, match_id: str, token: str | None = None, **body: Any) -> Any:
    """When a seat is taken (with a player's token, if given)."""
    headers = bearer(token) if token else {}
    return await client.post(f"/matches/{match_id}/seats", json=body, headers=headers)


async def test_a_players_seat_is_named_as_the_player_and_recorded_as_its(
    client: Client, database_url: str
):
    ash, match = await player(client, "Ash"), await opened(client)

    joined = await seated(client, match["match_id"], ash["token"])

    assert joined.status_code == 201, joined.text
    assert joined.json()["seat"] == 0 and joined.json()["token"]
    listed = await client.get(f"/matches/{match['match_id']}")
    assert listed.json()["players"][0]["name"] == "Ash"
    exported = await client.get(f"/matches/{match['match_id']}/log")
    assert exported.status_code == 200
    assert await count(database_url, f"events WHERE data->>'player' = '{ash['player_id']}'") == 1


async def test_a_player_may_sit_under_another_name(client: Client):
    ash, match = await player(client, "Ash"), await opened(client)

    joined = await seated(client, match["match_id"], ash["token"], name="Ember Queen")

    assert joined.status_code == 201
    listed = await client.get(f"/matches/{match['match_id']}")
    assert listed.json()["players"][0]["name"] == "Ember Queen"


async def test_the_players_token_acts_for_its_seat_in_its_match_and_not_in_another(
    client: Client
):
    ash, bryn = await player(client, "Ash"), await player(client, "Bryn")
    match, other = await opened(client), await opened(client)
    await seated(client, match["match_id"], ash["token"])
    await seated(client, match["match_id"], bryn["token"])
    await seated(client, other["match_id"], name="Cara")
    started = await client.post(f"/matches/{match['match_id']}/start",
                                headers=bearer(match["host_token"]))
    assert started.status_code == 200, started.text

    view = await client.get(f"/matches/{match['match_id']}/view", headers=bearer(bryn["token"]))
    actions = await client.get(f"/matches/{match['match_id']}/legal-actions",
                               headers=bearer(ash["token"]))
    ticket = await client.post(f"/matches/{match['match_id']}/stream-ticket",
                               headers=bearer(bryn["token"]))
    elsewhere = await client.get(f"/matches/{other['match_id']}/view",
                                 headers=bearer(ash["token"]))

    assert view.status_code == 200 and view.json()["seat"] == 1
    assert actions.status_code == 200
    assert ticket.status_code in (200, 201) and ticket.json()["seat"] == 1
    assert elsewhere.status_code == 401 and "not valid for this match" in elsewhere.text


async def test_a_player_cannot_take_two_seats_at_one_table(client: Client, database_url: str):
    ash, match = await player(client, "Ash"), await opened(client, seats=3)
    await seated(client, match["match_id"], ash["token"])

    again = await seated(client, match["match_id"], ash["token"], name="Ash Two")

    assert again.status_code == 422 and "already holds seat 0" in again.json()["detail"]
    assert await count(database_url, "events WHERE type = 'seat_joined'") == 1


async def test_a_rated_match_refuses_an_anonymous_seat_and_takes_players_and_bots(
    client: Client, database_url: str
):
    ash, match = await player(client, "Ash"), await opened(client, seats=3, rated=True)

    anonymous = await seated(client, match["match_id"], name="Nobody")

    assert anonymous.status_code == 422 and "rated" in anonymous.json()["detail"]
    assert await count(database_url, "events WHERE type = 'seat_joined'") == 0
    assert (await seated(client, match["match_id"], ash["token"])).status_code == 201
    assert (await seated(client, match["match_id"], bot="random")).status_code == 201
    listed = (await client.get(f"/matches/{match['match_id']}")).json()
    assert listed["rated"] is True
    assert [(p["player"], p["bot"]) for p in listed["players"]] == [
        (ash["player_id"], None), (None, "random")]


async def test_an_anonymous_casual_match_lists_no_players_and_is_not_rated(client: Client):
    match = await opened(client)
    await seated(client, match["match_id"], name="Nobody")

    listed = (await client.get(f"/matches/{match['match_id']}")).json()

    assert listed["rated"] is False and listed["players"][0]["player"] is None


async def test_a_practice_match_cannot_be_rated(client: Client, database_url: str):
    refused = await client.post("/matches", json={"game": "wick-and-ember", "seats": 2,
                                                  "practice": True, "rated": True})

    assert refused.status_code == 422 and "practice match cannot be rated" in refused.text
    assert await count(database_url, "matches") == 0


@pytest.mark.parametrize(("token", "status", "named"), [
    (None, 400, "at least one of name, bot"),
    ("not-a-player-token", 401, "no player's"),
])
async def test_a_seat_with_no_name_needs_a_valid_player_token(
    client: Client, database_url: str, token: str | None, status: int, named: str
):
    match = await opened(client)

    refused = await seated(client, match["match_id"], token)

    assert refused.status_code == status and named in refused.json()["detail"]
    assert await count(database_url, "events WHERE type = 'seat_joined'") == 0
