"""Connections that die mid-transaction: while bots play, Postgres ends the server's sessions
(pg_terminate_backend) again and again. Every answer is then 2xx or 503 (never a 500), nothing
acknowledged is lost, no command is half-written, and play goes on without a restart.

Each shot waits (bounded) until one of the server's sessions is at work (in a statement or a
transaction) and ends every session in the same statement, so each lands mid-play and ends at
least one session mid-work, however fast the bots play; the test fails if play ends first.
"""

from __future__ import annotations

import asyncio
import random
import time

import asyncpg

from tests.reliability.audit import audit, records
from tests.reliability.tables import Ledger, open_table, play_all

MATCHES = 3
SHOTS = 40
PLAY_SECONDS = 120
BUSY_SECONDS = 30  # for a session at work, before a shot: play has stopped if none comes
# When another session on the database is at work (in a statement or a transaction), every
# other session ended: (sessions ended, how many were at work), both 0 when none was at work.
TERMINATE = """WITH others AS (SELECT pid, state FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid())
SELECT count(pg_terminate_backend(pid)), count(*) FILTER (WHERE state <> 'idle') FROM others
WHERE EXISTS (SELECT FROM others WHERE state <> 'idle')"""


async def terminate_sessions(database_url: str, shots: list[tuple[int, int]]) -> None:
    """SHOTS times, as soon as a session is at work, end every other session on the database;
    each shot's (sessions ended, sessions at work) goes to ``shots``."""
    connection = await asyncpg.connect(database_url)
    try:
        for shot in range(SHOTS):
            await asyncio.sleep(random.uniform(0.01, 0.1))  # pacing: a varied moment of play
            deadline = time.monotonic() + BUSY_SECONDS
            while not (ended := tuple(await connection.fetchrow(TERMINATE)))[1]:
                assert time.monotonic() < deadline, f"no session at work before shot {shot + 1}"
                await asyncio.sleep(0.002)
            shots.append(ended)
    finally:
        await connection.close()


async def test_sessions_ended_mid_play_give_503s_and_lose_nothing(
    server, server_database, figures
):
    """Given bots playing, when Postgres ends the server's sessions forty times, each time with
    one at work, then answers are 2xx or 503, every acknowledged command is stored, and every
    match finishes. How the test knows the sessions died mid-play: each shot reports the
    sessions it ended and how many were at work then, every one of the forty ended one, and
    the bots were answered 503 at least once."""
    tables = [await open_table([server], 2, random.Random(40 + n), options={"ember_target": 3})
              for n in range(MATCHES)]
    ledger, shots = Ledger(), []
    finished, _ = await asyncio.gather(play_all(tables, ledger, PLAY_SECONDS),
                                       terminate_sessions(server_database, shots))
    events, problems = await audit(server_database, [t.match_id for t in tables])
    stored = await records(server_database)
    lost = [cid for cid, ack in ledger.acks.items() if stored.get(cid) != ack]
    assert len(shots) == SHOTS and all(ended and at_work for ended, at_work in shots), shots
    assert (ledger.unexpected(), finished, lost, problems) == ({}, MATCHES, [], [])
    assert ledger.statuses[503] > 0  # requests did meet an ended session, and were told 503
    figures.update(matches=MATCHES, terminations=SHOTS, sessions_ended=sum(s for s, _ in shots),
                   ended_at_work=sum(w for _, w in shots), answered_503=ledger.statuses[503],
                   acknowledged=len(ledger.acks), events_audited=events, lost=len(lost))
