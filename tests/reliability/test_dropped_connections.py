"""Connections that die mid-transaction: while bots play, Postgres ends the server's sessions
(pg_terminate_backend) again and again. Every answer is then 2xx or 503 (never a 500), nothing
acknowledged is lost, no command is half-written, and play goes on without a restart.

Each shot waits until one of the server's sessions is at work (in a statement or a transaction)
and ends every session in the same statement, so each lands mid-play and ends at least one
session mid-work. Play goes on, MATCHES tables at a time (all opened before any fault), until
every shot is fired, however fast or slow the machine plays.
"""

from __future__ import annotations

import asyncio
import random
import time

import asyncpg

from tests.reliability.audit import audit, records
from tests.reliability.tables import Ledger, Table, open_table, play_all

MATCHES, BATCHES = 3, 30  # tables played at once, and the most batches of them (opened first:
# ten were once played out after 33 shots, when play got quicker)
SHOTS = 40
PLAY_SECONDS = 180
# When another session on the database is at work (in a statement or a transaction), every
# other session ended: (sessions ended, how many were at work), both 0 when none was at work.
TERMINATE = """WITH others AS (SELECT pid, state FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid())
SELECT count(pg_terminate_backend(pid)), count(*) FILTER (WHERE state <> 'idle') FROM others
WHERE EXISTS (SELECT FROM others WHERE state <> 'idle')"""


async def terminate_sessions(
    database_url: str, shots: list[tuple[int, int]], over: asyncio.Event
) -> None:
    """SHOTS times, as soon as a session is at work, end every other session on the database
    (each shot's (sessions ended, sessions at work) goes to ``shots``); stops early once play is
    ``over``."""
    connection = await asyncpg.connect(database_url)
    try:
        while len(shots) < SHOTS and not over.is_set():
            await asyncio.sleep(random.uniform(0.01, 0.1))  # pacing: a varied moment of play
            while not over.is_set():
                if (ended := tuple(await connection.fetchrow(TERMINATE)))[1]:
                    shots.append(ended)
                    break
                await asyncio.sleep(0.002)
    finally:
        await connection.close()


async def play_until(tables: list[Table], ledger: Ledger, shooting: asyncio.Task[None]
                     ) -> list[Table]:
    """Play the tables MATCHES at a time, each batch to its end, until the shooting is over
    (bounded by PLAY_SECONDS); the tables played."""
    deadline, played = time.monotonic() + PLAY_SECONDS, []
    for first in range(0, len(tables), MATCHES):
        if shooting.done() or time.monotonic() >= deadline:
            break
        played += tables[first:first + MATCHES]
        await play_all(tables[first:first + MATCHES], ledger, deadline - time.monotonic())
    return played


async def test_sessions_ended_mid_play_give_503s_and_lose_nothing(
    server, server_database, figures
):
    """Given bots playing, when Postgres ends the server's sessions forty times, each time with
    one at work, then answers are 2xx or 503, every acknowledged command is stored, and every
    match played finishes. How the test knows the sessions died mid-play: each shot reports the
    sessions it ended and how many were at work then, and every one of the forty ended one; the
    bots were answered 503 at least once."""
    tables = [await open_table([server], 2, random.Random(40 + n), options={"ember_target": 3})
              for n in range(MATCHES * BATCHES)]
    ledger, shots, over = Ledger(), [], asyncio.Event()
    shooting = asyncio.create_task(terminate_sessions(server_database, shots, over))
    played = await play_until(tables, ledger, shooting)
    over.set()
    await shooting
    finished = sum(table.finished for table in played)
    events, problems = await audit(server_database, [t.match_id for t in played])
    stored = await records(server_database)
    lost = [cid for cid, ack in ledger.acks.items() if stored.get(cid) != ack]
    assert len(shots) == SHOTS and all(ended and at_work for ended, at_work in shots), shots
    assert (ledger.unexpected(), finished, lost, problems) == ({}, len(played), [], [])
    assert ledger.statuses[503] > 0  # requests did meet an ended session, and were told 503
    figures.update(matches=len(played), terminations=len(shots), sessions_ended=sum(s for s, _ in shots),
                   ended_at_work=sum(w for _, w in shots), answered_503=ledger.statuses[503],
                   acknowledged=len(ledger.acks), events_audited=events, lost=len(lost))
