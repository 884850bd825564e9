"""A player registers in a tournament with its token: the entrant is the player (its name unless
another is given), the player's token is the entrant's, the tables seat it as the player, and
the player's pages list the tournament and its matches. Registering twice is a 409."""

from __future__ import annotations

from typing import Any

from tests.players.support import Client, bearer, count, player


async def tournament(client: Client) -> dict[str, Any]:
    """A 2-seat Swiss of Wick & Ember in registration."""
    made = await client.post("/tournaments", json={
        "name": "Winter Cup", "game": "wick-and-ember", "table_size": 2, "format": "swiss",
        "rounds": 1})
    assert made.status_code == 201, made.text
    return made.json()


async def registered(client: Client, cup: dict[str, Any], token: str | None = None,
                     **body: Any) -> Any:
    """When an entrant registers (with a player's token, if given)."""
    return await client.post(f"/tournaments/{cup['tournament_id']}/players", json=body,
                             headers=bearer(token) if token else {})


async def test_a_player_enters_as_itself_and_its_token_is_the_entrants(client: Client):
    ash, cup = await player(client, "Ash"), await tournament(client)

    entered = await registered(client, cup, ash["token"])

    assert entered.status_code == 201, entered.text
    assert entered.json()["entrant"]["name"] == "Ash" and entered.json()["player_token"] is None
    me = await client.get(f"/tournaments/{cup['tournament_id']}/me", headers=bearer(ash["token"]))
    assert me.status_code == 200 and me.json()["entrant"]["number"] == 0
    listed = await client.get(f"/players/{ash['player_id']}/tournaments")
    assert [(t["tournament_id"], t["entrant"], t["entrant_name"])
            for t in listed.json()["tournaments"]] == [(cup["tournament_id"], 0, "Ash")]


async def test_a_player_registering_twice_is_refused_409_and_nothing_changes(
    client: Client, database_url: str
):
    ash, cup = await player(client, "Ash"), await tournament(client)
    await registered(client, cup, ash["token"])

    again = await registered(client, cup, ash["token"], name="Ash Again")

    assert again.status_code == 409 and "already entrant 0" in again.json()["detail"]
    assert await count(database_url, "tournament_entrants") == 1


async def test_an_unknown_player_token_or_no_name_registers_nobody(
    client: Client, database_url: str
):
    cup = await tournament(client)

    unknown = await registered(client, cup, "not-a-player-token", name="Ash")
    nameless = await registered(client, cup)

    assert unknown.status_code == 401 and "no player's" in unknown.json()["detail"]
    assert nameless.status_code == 400 and "needs a name" in nameless.json()["detail"]
    assert await count(database_url, "tournament_entrants") == 0


async def test_the_tournaments_tables_seat_the_player_and_its_pages_list_the_match(
    client: Client
):
    ash, cup = await player(client, "Ash"), await tournament(client)
    await registered(client, cup, ash["token"])
    await registered(client, cup, name="Bryn")
    organizer = bearer(cup["organizer_token"])
    tid = cup["tournament_id"]
    assert (await client.post(f"/tournaments/{tid}/close", headers=organizer)).status_code == 200
    assert (await client.post(f"/tournaments/{tid}/rounds", headers=organizer)).status_code == 201

    me = (await client.get(f"/tournaments/{tid}/me", headers=bearer(ash["token"]))).json()
    matches = (await client.get(f"/players/{ash['player_id']}/matches")).json()["matches"]
    view = await client.get(f"/matches/{me['match_id']}/view", headers=bearer(ash["token"]))

    assert [(m["match_id"], m["seat"]) for m in matches] == [(me["match_id"], me["seat"])]
    assert view.status_code == 200 and view.json()["seat"] == me["seat"]
