"""Whole matches played over HTTP by separate clients, on a real server and a real Postgres."""

from __future__ import annotations

import asyncio
import hashlib
import random

import httpx
import pytest

from tests.api.players import seated_match

NAMES = ["Ash", "Bryn", "Cole", "Dara", "Edda", "Fenn"]


@pytest.mark.parametrize("seats", [2, 6])
async def test_a_full_match_is_played_to_a_winner_by_separate_clients(server, seats):
    """Given a started match, when each seat's own client plays legal moves, then it ends with
    a winner, the same final view for everyone, and the seed published and matching."""
    created, players = await seated_match(server, NAMES[:seats],
                                          options={"match_length": "short"})
    try:
        finals = await asyncio.wait_for(
            asyncio.gather(*(p.play_randomly(random.Random(i)) for i, p in enumerate(players))),
            timeout=300,
        )
    finally:
        for player in players:
            await player.close()
    versions = {final["version"] for final in finals}
    assert len(versions) == 1
    async with httpx.AsyncClient(base_url=server) as client:
        summary = (await client.get(f"/matches/{created['match_id']}")).json()
    assert summary["status"] == "finished"
    assert summary["result"]["winners"]
    assert max(summary["result"]["scores"]) >= 1
    seed = bytes.fromhex(summary["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == summary["seed_commitment"]
    assert summary["client_seeds"] == [None] * seats
