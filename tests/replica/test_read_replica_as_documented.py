"""The read replica exactly as docs/scaling.md starts it: `hearthlog serve --database-url <primary>
--read-database-url <standby>` and no other setting (no HEARTHLOG_READ_* variable: the lag bound
and the probe's interval keep their defaults of 5 s and 1 s).

Listings and many-match exports are answered (by the standby once it is proven current), and the
probe survives the standby's failures: stopped, the standby's reads go to the primary (exports
503); started again, it serves them again, which only a probe that kept running can tell.
Before 41edbe7 such a server answered listings and exports with 500 and its probe died.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.replica.served import served
from tests.replica.test_read_replica import finished_match
from tests.servers import ONE_ADDRESS, Server, free_port, stop, wait_healthy
from tests.standby import Pair

SECONDS = 30  # the most the standby may take to be used again (probed every second)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def documented_server(replicated: tuple[str, str]) -> Iterator[Server]:
    """The server started as docs/scaling.md shows, nothing else set for the standby."""
    primary, standby = replicated
    server = Server(f"http://127.0.0.1:{(port := free_port())}")
    server.port, server.database_url = port, primary
    server.output = Path(tempfile.mkstemp(prefix="hearthlog-read-", suffix=".log")[1])
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("HEARTHLOG_READ_")}
    with server.output.open("a") as sink:
        server.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli.main", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--database-url", primary, "--read-database-url", standby],
            env={**env, "PYTHONUNBUFFERED": "1", **ONE_ADDRESS},
            stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_healthy(server)
        yield server
    finally:
        stop(server)
        server.output.unlink(missing_ok=True)


async def until_read(server: Server, url: str, read: str) -> httpx.Response:
    """GET ``url`` until ``read`` serves it a 200 (never a 500); fail after SECONDS."""
    deadline = time.monotonic() + SECONDS
    while True:
        answer, by = await served(server, url)
        assert answer.status_code != 500, answer.text
        if answer.status_code == 200 and by == read:
            return answer
        assert time.monotonic() < deadline, f"{url} still served by {by}: {answer.status_code}"
        await asyncio.sleep(0.2)


async def test_listings_and_exports_answer_and_the_probe_outlives_a_stopped_standby(
    pair: Pair, documented_server: Server
):
    """Given the server started as documented and a finished match the standby has replayed,
    then listings and the many-match export are served by the standby; when the standby is
    stopped, the listing is the primary's and the export a 503 with Retry-After (never a 500);
    started again, the standby serves both again."""
    match_id = await finished_match(documented_server)
    await pair.caught_up()
    listed = await until_read(documented_server, "/matches?status=finished", "standby")
    assert match_id in {m["match_id"] for m in listed.json()["matches"]}
    exported = await until_read(documented_server, "/exports/matches", "standby")
    assert match_id in exported.text
    pair.stop_standby()
    try:
        listed, by = await served(documented_server, "/matches")
        assert (listed.status_code, by) == (200, "primary"), listed.text
        refused, _ = await served(documented_server, "/exports/matches")
        assert refused.status_code == 503 and refused.headers["retry-after"], refused.text
    finally:
        pair.start_standby()
    await pair.caught_up()
    await until_read(documented_server, "/exports/matches", "standby")
    await until_read(documented_server, "/matches", "standby")
    assert "Traceback" not in documented_server.output.read_text(errors="replace")
