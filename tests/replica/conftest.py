"""A real primary and streaming standby (tests/standby.py), a migrated database on them, and a
`hearthlog serve --read-database-url` reading from the standby, shared by one test module."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.servers import ONE_ADDRESS, Server, free_port, stop, wait_healthy
from tests.standby import Pair, standby_pair

# Quick probes and a short lag bound, so the tests see the standby fall behind within seconds.
READ_SETTINGS = {"HEARTHLOG_READ_PROBE_SECONDS": "0.2", "HEARTHLOG_READ_MAX_LAG_SECONDS": "2"}


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    """A primary and its standby on loopback ports, destroyed after the module."""
    with standby_pair() as made:
        yield made


@pytest.fixture(scope="module")
async def replicated(pair: Pair) -> AsyncIterator[tuple[str, str]]:
    """A migrated database: its URL on the primary and on the standby."""
    async with pair.database() as urls:
        yield urls


@pytest.fixture(scope="module")
def read_server(replicated: tuple[str, str]) -> Iterator[Server]:
    """`hearthlog serve --database-url <primary> --read-database-url <standby>`, its output
    (the access log included) in a file."""
    primary, standby = replicated
    server = Server(f"http://127.0.0.1:{(port := free_port())}")
    server.port, server.database_url = port, primary
    server.output = Path(tempfile.mkstemp(prefix="hearthlog-read-", suffix=".log")[1])
    with server.output.open("a") as sink:
        server.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli.main", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--database-url", primary, "--read-database-url", standby],
            env={**os.environ, "PYTHONUNBUFFERED": "1", **ONE_ADDRESS, **READ_SETTINGS},
            stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_healthy(server)
        yield server
    finally:
        stop(server)
        server.output.unlink(missing_ok=True)
