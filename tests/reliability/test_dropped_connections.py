"""Connections that die mid-transaction: while bots play, Postgres ends the server's sessions
(pg_terminate_backend) again and again. Every answer is then 2xx or 503 (never a 500), nothing
acknowledged is lost, no command is half-written, and play goes on without a restart.
"""

from __future__ import annotations

import asyncio
import random

import asyncpg

from tests.reliability.audit import audit, records
from tests.reliability.tables import Ledger, open_table, play_all

MATCHES = 3
SHOTS = 40
PLAY_SECONDS = 120
TERMINATE = """SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
WHERE datname = current_database() AND pid <> pg_backend_pid()"""


async def terminate_sessions(database_url: str, ledger: Ledger, killed: list[int]) -> None:
    """End every other session on the database, SHOTS times, while moves are acknowledged."""
    connection = await asyncpg.connect(database_url)
    try:
        for _ in range(SHOTS):
            await asyncio.sleep(random.uniform(0.05, 0.3))
            killed.append(await connection.fetchval(TERMINATE))
    finally:
        await connection.close()


async def test_sessions_ended_mid_play_give_503s_and_lose_nothing(
    server, server_database, figures
):
    """Given bots playing, when Postgres ends the server's sessions forty times, then answers
    are 2xx or 503, every acknowledged command is stored, and every match finishes."""
    tables = [await open_table([server], 2, random.Random(40 + n), options={"ember_target": 2})
              for n in range(MATCHES)]
    ledger, killed = Ledger(), []
    finished, _ = await asyncio.gather(play_all(tables, ledger, PLAY_SECONDS),
                                       terminate_sessions(server_database, ledger, killed))
    events, problems = await audit(server_database, [t.match_id for t in tables])
    stored = await records(server_database)
    lost = [cid for cid, ack in ledger.acks.items() if stored.get(cid) != ack]
    assert (ledger.unexpected(), finished, lost, problems) == ({}, MATCHES, [], [])
    figures.update(matches=MATCHES, terminations=SHOTS, sessions_ended=sum(killed),
                   answered_503=ledger.statuses[503], acknowledged=len(ledger.acks),
                   events_audited=events, lost=len(lost))
