"""The server logs one structured line per request and never a token, a seed or a hidden card."""

from __future__ import annotations

import asyncio
import json

import asyncpg

from tests.api.players import seated_match


def access_lines(server) -> list[dict]:
    """The access-log lines the server has written so far."""
    lines = []
    for raw in server.output.read_text().splitlines():
        if raw.startswith("{"):
            lines.append(json.loads(raw))
    return lines


async def logged(server, route: str, match_id: str) -> dict:
    """The last line for a route of a match, waiting briefly: lines follow the answer."""
    for _ in range(100):
        found = [line for line in access_lines(server)
                 if line["path"].endswith(route) and line.get("match") == match_id]
        if found:
            return found[-1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no access line for {route}")


async def test_each_request_is_one_line_with_match_seat_status_and_duration(server):
    """Given a seat fetching its view, then the log has a line naming the match and the seat."""
    created, (ash, bryn) = await seated_match(server, ["Ash", "Bryn"])
    await bryn.get("/view")
    await ash.client.get(f"/matches/{created['match_id']}/legal-actions",
                         headers={"authorization": "Bearer wrong"})
    view = await logged(server, "/view", created["match_id"])
    assert view["seat"] == bryn.seat and view["status"] == 200
    assert view["method"] == "GET" and view["duration_ms"] >= 0
    refused = await logged(server, "/legal-actions", created["match_id"])
    assert refused["status"] == 401 and "seat" not in refused


async def test_the_log_never_shows_a_token_a_seed_or_a_hand(server, server_database):
    """Given a played turn, then no token, no server seed and no hidden card name is logged."""
    created, players = await seated_match(server, ["Ash", "Bryn"])
    ash, bryn = players
    turn = players[(await ash.get("/view"))["board"]["turn"]]
    hand = (await turn.get("/view"))["board"]["hand"]
    actions = [a["command"] for a in (await turn.get("/legal-actions"))["actions"]]
    assert (await turn.send(actions[0])).status_code == 200
    connection = await asyncpg.connect(server_database)
    try:
        seed = await connection.fetchval(
            "SELECT server_seed FROM matches WHERE match_id = $1", created["match_id"])
    finally:
        await connection.close()
    text = server.output.read_text()
    for secret in [created["host_token"], ash.token, bryn.token, seed.hex(), *hand]:
        assert secret not in text
