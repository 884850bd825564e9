"""Crash: kill -9 the server while bots play 20 matches, restart it, and lose nothing.

Client-side bots play 20 two-seat matches. Twice, once enough commands have been acknowledged,
the server's main process is killed with SIGKILL mid-request (its worker must then exit by
itself and free the port) and the server is started again on the same port and database;
the bots resend whatever got no answer (same command_id) and play on. Afterwards every command
that got a 2xx is in the store with the very answer the client got, no match holds a half-written
command (the audit re-decides every batch), and every match was played to its end.
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from tests.reliability.audit import audit, records, seeds
from tests.reliability.logcheck import log_problems
from tests.reliability.tables import Ledger, Table, open_table, play_all
from tests.servers import Server, kill, launch, port_freed, relaunch, stop

pytestmark = pytest.mark.slow
MATCHES = 20
KILL_AFTER = (60, 180)  # acknowledged commands before each kill -9
PLAY_SECONDS = 300


async def crash_when(
    server: Server, ledger: Ledger, acks: int, seconds: float, kills: list[int]
) -> Server:
    """Wait (bounded) until ``acks`` commands were acknowledged, kill -9, start again; fail if
    the bots stop short of ``acks``: a kill then would test less than it claims, or nothing."""
    deadline = time.monotonic() + seconds
    while len(ledger.acks) < acks:
        assert time.monotonic() < deadline, f"{len(ledger.acks)} of {acks} acknowledged: no kill"
        await asyncio.sleep(0.05)
    kills.append(len(ledger.acks))
    kill(server)
    assert await asyncio.to_thread(port_freed, server), "a worker outlived its killed server"
    return await asyncio.to_thread(relaunch, server)


async def crash_twice(server: Server, ledger: Ledger, kills: list[int]) -> Server:
    """Kill and restart the server at each threshold in KILL_AFTER; the last server."""
    for acks in KILL_AFTER:
        server = await crash_when(server, ledger, acks, PLAY_SECONDS / 3, kills)
    return server


async def test_kill_9_mid_play_loses_no_acknowledged_command_and_play_resumes(database, figures):
    """Given 20 matches in play, when the server is killed with SIGKILL twice and restarted,
    then every acknowledged command is stored with its answer, no command is half-written, and
    every match is played to its end. Each kill waits until its count of acknowledged commands
    is reached, and commands are acknowledged after the last: both kills came mid-play."""
    server = launch(database)
    tables: list[Table] = [await open_table([server], 2, random.Random(n),
                                            options={"ember_target": 3}) for n in range(MATCHES)]
    ledger, kills = Ledger(), []
    try:
        finished, server = await asyncio.gather(
            play_all(tables, ledger, PLAY_SECONDS), crash_twice(server, ledger, kills))
        events, problems = await audit(database)
        stored = await records(database)
        lost = [cid for cid, ack in ledger.acks.items() if stored.get(cid) != ack]
        assert (finished, lost, problems, ledger.unexpected()) == (MATCHES, [], [], {})
        assert len(ledger.acks) > kills[-1], "nothing was acknowledged after the last kill"
        secrets = [t for table in tables for t in table.tokens] + await seeds(database)
        assert log_problems(server.output, secrets) == []
    finally:
        stop(server)
        server.output.unlink(missing_ok=True)
    figures.update(matches=MATCHES, kills=len(kills), acked_at_each_kill=kills,
                   acknowledged=len(ledger.acks), dropped_requests=ledger.dropped,
                   retried=ledger.retried, events_audited=events, lost=len(lost))
