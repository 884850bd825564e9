"""Two server processes on one database: bots play through both at once (each request to
either, at random); nothing is lost or duplicated, and both serve the same views and logs (to
every viewer, every third move and at the end).
"""

from __future__ import annotations

import random

import pytest

from tests.reliability.audit import audit, records, seeds
from tests.reliability.logcheck import log_problems
from tests.reliability.tables import Ledger, Table, open_table, play_all

pytestmark = pytest.mark.slow
MATCHES = 10
PLAY_SECONDS = 300


async def differences(table: Table) -> list[str]:
    """Where the two servers' answers differ, for every viewer of a match."""
    found, url = [], f"/matches/{table.match_id}"
    viewers = [table.spectators, *table.clients]
    for index, (first, second) in enumerate(viewers):
        for route in ("/view", "/log", ""):
            one, two = await first.get(url + route), await second.get(url + route)
            if (one.status_code, one.json()) != (two.status_code, two.json()):
                found.append(f"{url}{route} as viewer {index - 1}: the servers differ")
    return found


async def test_bots_playing_through_two_servers_lose_nothing_and_see_the_same(
    server, second_server, server_database, figures
):
    """Given ten matches whose every request goes to one of two servers at random, then every
    match ends, every acknowledged command is stored once with its answer, the audit finds
    nothing wrong, and both servers serve identical views, logs and summaries."""
    tables = [await open_table([server, second_server], 2 + n % 3, random.Random(70 + n),
                               options={"ember_target": 2}) for n in range(MATCHES)]
    ledger, different = Ledger(), []

    async def compare(table: Table) -> None:
        """Every third move, both servers must show every viewer the same match."""
        if table.moves % 3 == 0:
            different.extend(await differences(table))

    finished = await play_all(tables, ledger, PLAY_SECONDS, after=compare)
    events, problems = await audit(server_database, [t.match_id for t in tables])
    stored = await records(server_database)
    lost = [cid for cid, ack in ledger.acks.items() if stored.get(cid) != ack]
    different += [d for table in tables for d in await differences(table)]
    assert (finished, lost, problems, different, ledger.unexpected()) == (MATCHES, [], [], [], {})
    secrets = [t for table in tables for t in table.tokens] + await seeds(server_database)
    for running in (server, second_server):
        assert log_problems(running.output, secrets) == []
    compared = sum((t.moves // 3 + 1) * 3 * (len(t.tokens) + 1) for t in tables)
    figures.update(servers=2, matches=MATCHES, acknowledged=len(ledger.acks),
                   events_audited=events, answers_compared=compared, lost=len(lost),
                   duplicated=0)
