"""The server logs one structured line per request and never a token, a seed or a hidden card."""

from __future__ import annotations

import asyncio
import json
import time

import asyncpg
import httpx

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
    """Given a played turn, then no token, no server seed and no hidden card name is logged.

    The log is read once the line of a request sent after all the others is there: lines are
    written after their answers, in order, so every request of the turn has its line by then."""
    created, players = await seated_match(server, ["Ash", "Bryn"])
    ash, bryn = players
    turn = players[(await ash.get("/view"))["board"]["turn"]]
    hand = (await turn.get("/view"))["board"]["hand"]
    actions = [a["command"] for a in (await turn.get("/legal-actions"))["actions"]]
    assert (await turn.send(actions[0])).status_code == 200
    await turn.client.get("/after-the-secrets-test")  # logged after every line above
    await lines_for(server, "after-the-secrets-test", 1)
    connection = await asyncpg.connect(server_database)
    try:
        seed = await connection.fetchval(
            "SELECT server_seed FROM matches WHERE match_id = $1", created["match_id"])
    finally:
        await connection.close()
    text = server.output.read_text()
    for secret in [created["host_token"], ash.token, bryn.token, seed.hex(), *hand]:
        assert secret not in text


async def lines_for(server, marker: str, count: int, seconds: float = 10) -> list[dict]:
    """The access lines whose path holds ``marker``, once ``count`` of them are there; fails
    after ``seconds`` (a check that reads the log must not go on with lines still missing)."""
    deadline = time.monotonic() + seconds
    while True:
        found = [line for line in access_lines(server) if marker in line["path"]]
        if len(found) >= count:
            return found
        assert time.monotonic() < deadline, f"{len(found)} of {count} lines for {marker}: {found}"
        await asyncio.sleep(0.05)


async def test_requests_the_router_refuses_get_one_line_each(server):
    """Given a 404 for an unknown path, a 405 and a HEAD, then each has its access line (read
    once the line of a request sent after them is there)."""
    async with httpx.AsyncClient(base_url=server) as client:
        assert (await client.get("/no-such-route")).status_code == 404
        assert (await client.delete("/no-such-route")).status_code == 404
        assert (await client.put("/games")).status_code == 405
        assert (await client.head("/games")).status_code == 405
        await client.get("/after-the-router-test")  # logged after every line above
    await lines_for(server, "after-the-router-test", 1)
    lines = await lines_for(server, "no-such-route", 2)
    assert [(line["method"], line["status"]) for line in lines] == [("GET", 404), ("DELETE", 404)]
    games = [(line["method"], line["status"]) for line in access_lines(server)
             if line["path"] == "/games"]
    assert ("PUT", 405) in games and ("HEAD", 405) in games


async def test_a_token_put_in_a_path_by_mistake_is_not_logged(server):
    """Given a seat token sent in the path (of a route and of no route), then the answers are
    404 and the token is nowhere in the server's output, read once the line of a request sent
    after them is there; the lines name the route's template."""
    created, (ash, _) = await seated_match(server, ["Ash", "Bryn"])
    async with httpx.AsyncClient(base_url=server) as client:
        for path in [f"/matches/{ash.token}", f"/matches/{created['match_id']}/view/{ash.token}",
                     f"/games/{ash.token}", f"/{ash.token}"]:
            assert (await client.get(path)).status_code == 404
        await client.get("/after-the-token-test")  # logged after every line above
    await lines_for(server, "after-the-token-test", 1)
    assert ash.token not in server.output.read_text()
    paths = {line["path"] for line in access_lines(server)}
    assert {"/matches/{match_id}", "/games/{game}", "/*"} <= paths
