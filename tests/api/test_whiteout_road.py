"""Whiteout Road over HTTP: simultaneous hidden plays by concurrent clients, then a verified export."""

from __future__ import annotations

import asyncio
import random

import httpx

from domain.whiteout_road.cards import title
from tests.api.players import Player, finished_documents, seated_match, verified_offline

NAMES = ["Mara", "Tobin", "Ines", "Oskar"]


async def play_in_random_order(player: Player, rng: random.Random) -> dict:
    """Commit a random legal play whenever one is owed, after a random pause, until the end."""
    while True:
        view = await player.get("/view")
        if view["status"] == "finished":
            return view
        actions = [a["command"] for a in (await player.get("/legal-actions"))["actions"]]
        if not actions:
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(rng.random() * 0.03)
        answer = await player.send(rng.choice(actions))
        assert answer.status_code in (200, 409), answer.text


async def test_a_whole_game_is_played_by_concurrent_clients_committing_in_random_order(
    server, tmp_path
):
    """Given four clients, when each commits whenever a play is owed, in random order, then the
    game ends after three nights with a winner, and its export verifies offline."""
    created, players = await seated_match(server, NAMES, game="whiteout-road")
    try:
        finals = await asyncio.wait_for(
            asyncio.gather(*(play_in_random_order(p, random.Random(i))
                             for i, p in enumerate(players))),
            timeout=600,
        )
    finally:
        for player in players:
            await player.close()
    assert len({final["version"] for final in finals}) == 1
    board = finals[0]["board"]
    assert board["type"] == "whiteout-road" and len(board["nights"]) == 3
    summary, verification, export = await finished_documents(server, created["match_id"])
    assert summary["status"] == "finished" and summary["result"]["winners"]
    assert [p["score"] for p in board["players"]] == summary["result"]["scores"]
    assert verification["ok"] is True, verification
    await verified_offline(export, tmp_path / "whiteout.json")


async def test_a_pending_commitment_is_seen_only_by_its_owner(server):
    """Given one player has committed, then the others and the spectator see only that it is
    committed, while its owner sees its card and play."""
    created, players = await seated_match(server, NAMES[:3], game="whiteout-road")
    first = players[0]
    action = (await first.get("/legal-actions"))["actions"][0]["command"]
    assert (await first.send(action)).status_code == 200
    mine = (await first.get("/view"))["board"]
    assert mine["commitment"] is not None
    assert mine["commitment"]["card"] == action["card"]
    async with httpx.AsyncClient(base_url=server) as client:
        spectator = (await client.get(f"/matches/{created['match_id']}/view")).json()["board"]
        public_log = (await client.get(f"/matches/{created['match_id']}/log")).json()
    others = [(await p.get("/view"))["board"] for p in players[1:]]
    for board in [spectator, *others]:
        assert board["commitment"] is None
        assert board["players"][0]["committed"] is True
    shown = title(action["card"])
    for player in players[1:]:
        lines = (await player.get("/log"))["entries"]
        assert not any(shown in line["text"] for line in lines)
    assert not any(shown in line["text"] for line in public_log["entries"])
    owner = (await first.get("/log"))["entries"]
    assert any(shown in line["text"] for line in owner if line["private"])
