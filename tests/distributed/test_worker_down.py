"""A Citus worker down under the ordinary server: what still answers, what answers 503, and that
nothing acknowledged is lost (docs/scaling.md, "A worker down").

Matches of two people are opened until both workers hold some; commands are played on every
match; then one worker is stopped (a fast shutdown, by its PID). Every route is asked once for a
match on each worker, and play goes on where it can; the worker is started again, and every
command the server acknowledged, before or during the outage, is found stored as acknowledged.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import httpx
import pytest

from service.store.provisioning import create_pool
from tests.api.players import Player, seated_match
from tests.citus import Cluster
from tests.servers import Server

pytestmark = pytest.mark.slow
WHERE = """SELECT nodeport FROM citus_shards
    WHERE shardid = get_shard_id_for_distribution_column('matches', $1::uuid)"""
RECOVERY_SECONDS = 60


class Table:
    """A match of two people and the commands the server acknowledged in it."""

    def __init__(self, match_id: str, players: list[Player], port: int) -> None:
        self.match_id, self.players, self.port = match_id, players, port
        self.acks: dict[str, int] = {}  # command id -> version answered

    async def play_one(self) -> int:
        """One legal command of the seat to act, with a command id: its status code."""
        for player in self.players:
            actions = await player.client.get(f"/matches/{self.match_id}/legal-actions")
            if actions.status_code != 200:
                return actions.status_code
            if offered := actions.json()["actions"]:
                command_id = uuid.uuid4().hex
                answer = await player.send(offered[0]["command"], command_id=command_id)
                if answer.status_code == 200:
                    self.acks[command_id] = answer.json()["version"]
                return answer.status_code
        return 204  # nothing to play: the match is over


async def tables_on_both_workers(server: Server, url: str, ports: list[int]) -> list[Table]:
    """Matches opened until each worker holds at least two."""
    pool = await create_pool(url, min_size=1, max_size=2)
    tables: list[Table] = []
    try:
        while min(sum(t.port == port for t in tables) for port in ports) < 2:
            assert len(tables) < 40, "the matches all hash to one worker"
            created, players = await seated_match(server, ["Ash", "Bryn"],
                                                  options={"ember_target": 6})
            port = await pool.fetchval(WHERE, created["match_id"])
            tables.append(Table(created["match_id"], players, port))
    finally:
        await pool.close()
    return tables


async def probe(server: Server, up: Table, down: Table) -> dict[str, int]:
    """Each route once: its status code (a 503 must carry Retry-After)."""
    found: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        routes: list[tuple[str, str, Any]] = [
            ("GET /health", "/health", None), ("GET /games", "/games", None),
            ("GET /matches", "/matches", None), ("GET /exports/matches", "/exports/matches", None),
            ("GET /tournaments", "/tournaments", None)]
        for where, table in (("up", up), ("down", down)):
            for path in ("", "/view", "/log"):
                routes.append((f"GET /matches/{{id}}{path} ({where})",
                               f"/matches/{table.match_id}{path}", None))
        for name, path, _ in routes:
            answer = await client.get(path)
            found[name] = answer.status_code
            assert answer.status_code != 503 or "retry-after" in answer.headers, name
        created = [(await client.post("/matches", json={"game": "wick-and-ember", "seats": 2})
                    ).status_code for _ in range(10)]
    found["POST /matches (10 tries): 201"] = created.count(201)
    found["POST /matches (10 tries): 503"] = created.count(503)
    found["POST /matches/{id}/commands (up)"] = await up.play_one()
    found["POST /matches/{id}/commands (down)"] = await down.play_one()
    return found


async def stored_acks(url: str, tables: list[Table]) -> dict[str, int]:
    """Every acknowledged command id found in the store, with the version it recorded."""
    pool = await create_pool(url, min_size=1, max_size=2)
    try:
        found = {}
        for table in tables:
            rows = await pool.fetch("SELECT command_id, version FROM commands WHERE match_id = $1",
                                    uuid.UUID(table.match_id))
            found.update({row["command_id"]: row["version"] for row in rows})
        return found
    finally:
        await pool.close()


async def played_again(table: Table, seconds: float) -> int:
    """Play one command, again after each 503 (as Retry-After asks) until it is answered; the
    status then (AssertionError past ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = await table.play_one()
        if status != 503:
            return status
        await asyncio.sleep(0.5)
    raise AssertionError(f"match {table.match_id} still answers 503 after {seconds} s")


async def answers(server: Server, path: str, seconds: float) -> float:
    """Seconds until ``path`` answers 200 (AssertionError past ``seconds``)."""
    began = time.monotonic()
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        while time.monotonic() - began < seconds:
            if (await client.get(path)).status_code == 200:
                return time.monotonic() - began
            await asyncio.sleep(0.1)
    raise AssertionError(f"{path} did not answer 200 within {seconds} s")


async def test_a_worker_down_answers_503_where_needed_and_loses_nothing_acknowledged(
    cluster_server: Server, cluster_url: str, citus_cluster: Cluster, figures: dict[str, Any]
):
    """Given matches on both workers with commands acknowledged, when one worker stops, then
    the server answers 200 for /health and for reading a match on the other worker, and 503
    with Retry-After, never a 500, for what needs the stopped one: its matches, listings,
    exports; writes answer 200 or 503 (measured: docs/scaling.md); when the worker is back,
    every route answers again, play goes on, and every acknowledged command is stored as
    acknowledged."""
    worker = citus_cluster.workers[0]
    ports = [w.port for w in citus_cluster.workers]
    tables = await tables_on_both_workers(cluster_server, cluster_url, ports)
    for _ in range(3):
        for table in tables:
            assert await table.play_one() == 200
    up = next(t for t in tables if t.port != worker.port)
    down = next(t for t in tables if t.port == worker.port)

    citus_cluster.stop(worker)
    try:
        found = await probe(cluster_server, up, down)
        during = [await t.play_one() for t in tables]
    finally:
        citus_cluster.start(worker)
    recovered = await answers(cluster_server, "/matches", RECOVERY_SECONDS)
    began = time.monotonic()
    after = [await played_again(t, RECOVERY_SECONDS) for t in tables]
    writes_back = time.monotonic() - began + recovered
    stored = await stored_acks(cluster_url, tables)
    for table in tables:
        for player in table.players:
            await player.client.aclose()

    acked = {cid: version for t in tables for cid, version in t.acks.items()}
    lost = [cid for cid, version in acked.items() if stored.get(cid) != version]
    assert 500 not in found.values() and 500 not in during, (found, during)
    assert found["GET /health"] == found["GET /games"] == 200
    assert all(found[f"GET /matches/{{id}}{p} (up)"] == 200 for p in ("", "/view", "/log"))
    assert all(found[f"GET /matches/{{id}}{p} (down)"] == 503 for p in ("", "/view", "/log"))
    assert found["GET /matches"] == found["GET /exports/matches"] == 503
    writes = [v for k, v in found.items() if k.startswith("POST /matches/{id}")] + during
    assert set(writes) <= {200, 204, 503}
    assert found["POST /matches/{id}/commands (down)"] == 503
    assert set(after) <= {200, 204} and lost == []
    figures.update(statuses_while_down=found, matches=len(tables),
                   acknowledged=len(acked), lost=len(lost), recovered_s=round(recovered, 2),
                   every_match_played_again_s=round(writes_back, 2))
