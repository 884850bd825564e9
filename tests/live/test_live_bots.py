"""Bots fill seats and play through the same command path as anyone, to the end of a match."""

from __future__ import annotations

import asyncio
import json
import random

import httpx

from tests.api.players import Player, open_match
from tests.live.stream_client import stored_events, wait_for


async def bot_match(base: str, bots: list[str], people: list[str], **body) -> tuple[dict, list]:
    """A started match: bots in the first seats, then a Player per person."""
    created = await open_match(base, len(bots) + len(people), **body)
    match_id = created["match_id"]
    async with httpx.AsyncClient(base_url=base) as client:
        for bot in bots:
            seated = await client.post(f"/matches/{match_id}/seats", json={"bot": bot})
            assert seated.status_code == 201, seated.text
            assert seated.json()["token"] is None and seated.json()["bot"] == bot
    players = [Player(base, match_id, name) for name in people]
    for player in players:
        await player.join()
    async with httpx.AsyncClient(base_url=base) as host:
        started = await host.post(
            f"/matches/{match_id}/start",
            headers={"authorization": f"Bearer {created['host_token']}"},
        )
        assert started.status_code == 200, started.text
    return created, players


async def summary(base: str, match_id: str) -> dict:
    """The match's summary."""
    async with httpx.AsyncClient(base_url=base) as client:
        return (await client.get(f"/matches/{match_id}")).json()


async def test_one_person_and_five_bots_play_a_match_to_the_end(live_server, live_database):
    """Given five bots (random and careful) and one person, when the person plays, then the
    match ends; every bot is marked in the players and the log, and each bot's moves were
    stored as its own seat's commands."""
    bots = ["random", "careful", "random", "careful", "random"]
    created, [ash] = await bot_match(live_server, bots, ["Ash"], options={"match_length": "short"})
    match_id = created["match_id"]
    try:
        final = await asyncio.wait_for(ash.play_randomly(random.Random(6)), timeout=180)
        log = await ash.get("/log")
    finally:
        await ash.close()
    assert final["status"] == "finished"
    assert [p["bot"] for p in final["players"]] == [*bots, None]
    assert [p["bot"] for p in (await summary(live_server, match_id))["players"]] == [*bots, None]
    texts = [line["text"] for line in log["entries"]]
    assert "Bot 1 (bot) took seat 0" in texts and "Ash took seat 5" in texts
    rows = await stored_events(live_database, match_id)
    movers = {
        json.loads(row["metadata"])["seat"]
        for row in rows
        if "command" in json.loads(row["metadata"])
    }
    # A short match can end in two quick rounds with a bot snuffed before its turn in both (about
    # one deal in 110), so "every bot moved" is not a rule; "every seat that had a turn moved,
    # as its own seat, and only then" is.
    turned = {json.loads(row["data"])["seat"] for row in rows if row["type"] == "turn_began"}
    assert turned <= movers
    bots_moved = movers & set(range(5))
    assert bots_moved and bots_moved <= turned


async def test_a_match_of_bots_alone_plays_to_the_end(live_server):
    """Given four bots and nobody else, when the host starts the match, then it ends by itself."""
    created, _ = await bot_match(
        live_server,
        ["careful", "random", "careful", "random"],
        [],
        options={"match_length": "short"},
    )

    async def over() -> dict | None:
        """The summary once the match is finished."""
        found = await summary(live_server, created["match_id"])
        return found if found["status"] == "finished" else None

    done = await wait_for(over, seconds=180, poll=0.3)
    assert done["result"]["winners"]


async def test_a_bot_the_game_does_not_have_is_refused_and_a_bots_seat_has_no_token(live_server):
    """Given an unknown bot name, then 400; a known bot with a name takes that name."""
    created = await open_match(live_server, 2)
    url = f"/matches/{created['match_id']}/seats"
    async with httpx.AsyncClient(base_url=live_server) as client:
        unknown = await client.post(url, json={"bot": "genius"})
        named = await client.post(url, json={"bot": "careful", "name": "Cole"})
        view = (await client.get(f"/matches/{created['match_id']}/view")).json()
    assert unknown.status_code == 400
    assert named.json() == {"seat": 0, "token": None, "bot": "careful"}
    assert view["players"] == [{"seat": 0, "name": "Cole", "bot": "careful", "player": None}]
