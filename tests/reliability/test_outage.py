"""Database outage: Postgres stops mid-load and starts again; the server answers 503 with
Retry-After while it is down (never a 500, never a hang), and recovers by itself.

The test runs its own embedded Postgres (outage.py). Bots play six matches; twice, once enough
commands are acknowledged, Postgres is stopped (first "fast": sessions ended; then "immediate":
a crash, connections dying mid-transaction), every route is probed while it is down, and it is
started again. The same server process must then answer /health and let the bots finish.
"""

from __future__ import annotations

import asyncio
import random
import time

import httpx
import pytest

from service.store.migrations import apply_migrations
from service.store.provisioning import create_database
from tests.reliability.audit import audit, records, seeds
from tests.reliability.logcheck import log_problems
from tests.reliability.outage import OwnPostgres
from tests.reliability.tables import TIMEOUT, Ledger, Table, open_table, play_all
from tests.servers import Server, launch, stop

pytestmark = pytest.mark.slow
MATCHES = 6
OUTAGES = (("fast", 25), ("immediate", 60))  # stop mode, acknowledged commands before it
DOWN_SECONDS = 4
RECOVERY_SECONDS = 60
PLAY_SECONDS = 300


def routes(table: Table, lobby: dict) -> list[tuple[str, str, str | None]]:
    """Every route that needs the database: (method, path, token)."""
    match, idle = f"/matches/{table.match_id}", f"/matches/{lobby['match_id']}"
    seat, host = lobby["seat_token"], lobby["host_token"]
    return [("GET", "/health", None), ("GET", "/matches", None), ("POST", "/matches", None),
            ("GET", match, None), ("GET", f"{match}/view", None),
            ("GET", f"{match}/view", table.tokens[0]), ("GET", f"{match}/log", None),
            ("GET", f"{match}/legal-actions", table.tokens[0]), ("GET", f"{match}/replay", None),
            ("GET", f"{match}/verification", None), ("POST", f"{idle}/seats", None),
            ("POST", f"{idle}/start", host), ("POST", f"{idle}/commands", seat),
            ("POST", f"{idle}/concede", seat)]


BODIES = {"/matches": {"game": "wick-and-ember", "seats": 2}, "/seats": {"name": "Late"},
          "/commands": {"command": {"type": "concede"}}}


async def probe(server: Server, table: Table, lobby: dict) -> tuple[list[str], float]:
    """Call every route while the database is down: (what was wrong, slowest answer in s)."""
    found, slowest = [], 0.0
    async with httpx.AsyncClient(base_url=server, timeout=TIMEOUT) as client:
        for method, path, token in routes(table, lobby):
            headers = {"authorization": f"Bearer {token}"} if token else {}
            body = next((b for end, b in BODIES.items() if path.endswith(end)), None)
            started = time.monotonic()
            answer = await client.request(method, path, headers=headers, json=body)
            slowest = max(slowest, time.monotonic() - started)
            if answer.status_code != 503 or "retry-after" not in answer.headers:
                found.append(f"{method} {path}: {answer.status_code} {answer.text[:200]}")
            elif not answer.json().get("detail"):
                found.append(f"{method} {path}: a 503 without a message")
        games = await client.get("/games")
        if games.status_code != 200:
            found.append(f"GET /games needs no database, yet answered {games.status_code}")
    return found, slowest


async def recovered(server: Server) -> float:
    """Seconds until /health answers 200 again (bounded)."""
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=server, timeout=TIMEOUT) as client:
        for _ in range(RECOVERY_SECONDS * 4):
            try:
                if (await client.get("/health")).status_code == 200:
                    return time.monotonic() - started
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.25)
    raise AssertionError(f"no recovery within {RECOVERY_SECONDS} s")


async def outages(pg, server, ledger, table, lobby, log: dict) -> None:
    """Stop and restart Postgres at each threshold, probing while it is down."""
    for mode, acks in OUTAGES:
        for _ in range(PLAY_SECONDS * 10):
            if len(ledger.acks) >= acks:
                break
            await asyncio.sleep(0.1)
        assert len(ledger.acks) >= acks, "the bots stopped before the outage"
        await asyncio.to_thread(pg.stop, mode)
        found, slowest = await probe(server, table, lobby)
        await asyncio.sleep(DOWN_SECONDS)
        await asyncio.to_thread(pg.start)
        log["problems"] += found
        log["slowest_answer_while_down_s"] = max(log["slowest_answer_while_down_s"], slowest)
        log["recovery_s"].append(round(await recovered(server), 2))
        assert server.process.poll() is None, "the server died with its database"


async def lobby_of(server: Server) -> dict:
    """A match waiting for a second seat: its id, host token and first seat's token."""
    async with httpx.AsyncClient(base_url=server, timeout=TIMEOUT) as client:
        created = (await client.post("/matches", json={"game": "wick-and-ember",
                                                       "seats": 2})).json()
        seat = await client.post(f"/matches/{created['match_id']}/seats", json={"name": "Early"})
    return {**created, "seat_token": seat.json()["token"]}


async def test_a_postgres_outage_gets_503s_and_play_resumes_without_a_restart(tmp_path, figures):
    """Given bots playing, when Postgres stops (fast, then immediate) and starts again, then
    every route answers 503 with Retry-After while it is down, the same server recovers, every
    acknowledged command is stored, and the matches finish."""
    pg = OwnPostgres(tmp_path)
    server = None
    try:
        database = await create_database(pg.url, "hearthlog")
        await apply_migrations(database)
        server = launch(database)
        tables = [await open_table([server], 2, random.Random(n), options={"ember_target": 4})
                  for n in range(MATCHES)]
        lobby, ledger = await lobby_of(server), Ledger()
        log = {"problems": [], "slowest_answer_while_down_s": 0.0, "recovery_s": []}
        finished, _ = await asyncio.gather(play_all(tables, ledger, PLAY_SECONDS),
                                           outages(pg, server, ledger, tables[0], lobby, log))
        events, problems = await audit(database)
        stored = await records(database)
        lost = [cid for cid, ack in ledger.acks.items() if stored.get(cid) != ack]
        assert (log["problems"], finished, lost, problems) == ([], MATCHES, [], [])
        assert ledger.unexpected() == {} and ledger.statuses[503] > 0
        secrets = [t for table in tables for t in table.tokens] + await seeds(database)
        assert log_problems(server.output, secrets) == []
        text = server.output.read_text(errors="replace")
        outage_lines = [line for line in text.splitlines()
                        if "database unavailable" in line or "database available again" in line]
        assert "Traceback" not in text and len(outage_lines) <= 2 * len(OUTAGES), outage_lines
    finally:
        if server is not None:
            stop(server)
        pg.close()
    figures.update(matches=MATCHES, outages=[m for m, _ in OUTAGES], down_seconds=DOWN_SECONDS,
                   routes_probed=len(routes(tables[0], lobby)) * len(OUTAGES),
                   answered_503=ledger.statuses[503], dropped=ledger.dropped,
                   acknowledged=len(ledger.acks), events_audited=events, lost=len(lost),
                   recovery_s=log["recovery_s"], outage_log_lines=len(outage_lines),
                   slowest_answer_while_down_s=round(log["slowest_answer_while_down_s"], 2))
