"""Overload: 2,000 stalled uploads and 2,000 open streams against one server, and it keeps answering.

A crowd process (crowd.py) opens the uploads (each opened again when the server cuts it) and the
streams (all following the match being played) and holds them; meanwhile the test asks for
health, a view and a command, again and again, and each must be answered within a second. After
the crowd leaves, everything is answered normally. The per-client limits are raised for this
server, since every socket of the crowd comes from one address (docs/limits.md).
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.reliability.logcheck import log_problems
from tests.reliability.tables import Table, next_move, open_table, send
from tests.servers import Server, serving

pytestmark = pytest.mark.slow
UPLOADS, STREAMS, HOLD = 2000, 2000, 25.0
RAISED = {"HEARTHLOG_STREAMS_PER_CLIENT": "5000", "HEARTHLOG_STREAMS_PER_MATCH": "5000", "HEARTHLOG_REQUESTS_PER_MINUTE": "1000000",
          "HEARTHLOG_MATCHES_PER_HOUR": "1000000"}
WITHIN = 1.0


@pytest.fixture(scope="module")
def loaded(server_database: str) -> Iterator[Server]:
    """A server of its own, with the per-client limits raised."""
    with serving(server_database, env=RAISED) as running:
        yield running


async def timed(call) -> tuple[float, int]:
    """(seconds, status) of one request."""
    started = time.monotonic()
    answer = await call
    return time.monotonic() - started, answer.status_code


async def probe(tables: list[Table], slowest: dict[str, float], statuses: list[int]) -> None:
    """Health, a view and a command (on the first match not finished), each timed."""
    table = next(t for t in tables if not t.finished)
    spectator = table.spectator()
    for kind, call in (("health", spectator.get("/health")),
                       ("view", spectator.get(f"/matches/{table.match_id}/view"))):
        seconds, status = await timed(call)
        slowest[kind] = max(slowest.get(kind, 0.0), seconds)
        statuses.append(status)
    started = time.monotonic()
    move = await next_move(table)
    if isinstance(move, tuple):
        answer = await send(table, *move)
        statuses.append(answer.status_code)
        slowest["command"] = max(slowest.get("command", 0.0), time.monotonic() - started)


async def probed_while(crowd: subprocess.Popen, tables: list[Table], hold: float,
                       report_seconds: float) -> tuple[dict, dict[str, float], list[int], int]:
    """Probe (health, a view, a command) while a crowd process holds, from its "ready" line to
    the end of its hold: (its report, the slowest of each probe, the statuses, the rounds)."""
    try:
        ready = await asyncio.to_thread(crowd.stdout.readline)
        assert ready.strip() == "ready", ready
        slowest: dict[str, float] = {}
        statuses: list[int] = []
        rounds, ends = 0, time.monotonic() + hold - 2
        while time.monotonic() < ends:
            await probe(tables, slowest, statuses)
            rounds += 1
            await asyncio.sleep(0.2)
        out = (await asyncio.to_thread(crowd.communicate, timeout=report_seconds))[0]
    finally:
        if crowd.poll() is None:
            crowd.kill()
    return json.loads(out.strip().splitlines()[-1]), slowest, statuses, rounds


def start_crowd(server: Server, match_id: str) -> subprocess.Popen:
    """The crowd in a process of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.crowd", str(server.port), match_id,
         str(UPLOADS), str(STREAMS), str(HOLD)], stdout=subprocess.PIPE, text=True)


async def test_thousands_of_stalled_uploads_and_streams_leave_health_views_and_commands_answered(
    loaded, figures
):
    """Given 2,000 stalled uploads and 2,000 streams held open, when health, a view and a command
    are asked for throughout, then each is answered within a second; after the crowd leaves,
    every request is answered normally."""
    tables = [await open_table([loaded], 2, random.Random(n)) for n in range(8)]
    report, slowest, statuses, rounds = await probed_while(
        start_crowd(loaded, tables[0].match_id), tables, HOLD, report_seconds=90)
    after: list[int] = []
    await probe(tables, {}, after)
    figures.update(uploads=UPLOADS, streams=STREAMS, hold_seconds=HOLD, probe_rounds=rounds,
                   slowest_seconds={k: round(v, 3) for k, v in slowest.items()}, crowd=report)
    assert report.get("stream answered 200") == STREAMS, report
    assert report.get("streams with an update") == STREAMS, report
    assert report.get("upload answered 408", 0) >= UPLOADS, report
    assert set(statuses) <= {200} and set(after) <= {200}, (statuses, after)
    assert rounds >= 10 and all(seconds < WITHIN for seconds in slowest.values()), slowest
    assert log_problems(loaded.output, [t for table in tables for t in table.tokens]) == []
