"""A real server process on loopback, on its own migrated database, for end-to-end tests."""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from service.postgres import create_database, drop_database
from tests.servers import Server, launch

STARTUP_SECONDS = 60


def start_server(database_url: str) -> tuple[subprocess.Popen, Server]:
    """Start `hearthlog serve` on a free loopback port and wait until /health answers."""
    server = launch(database_url, startup_seconds=STARTUP_SECONDS)
    return server.process, server


def stop_server(process: subprocess.Popen) -> None:
    """Stop a server process, killing it if it does not stop in time."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
async def server_database(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """A migrated database shared by one test module's server."""
    name = f"api_{uuid.uuid4().hex[:12]}"
    yield await create_database(postgres_server_url, name, template=template_database)
    await drop_database(postgres_server_url, name)


@pytest.fixture(scope="module")
def server(server_database: str) -> Iterator[str]:
    """The base URL of a real `hearthlog serve` process, for one test module."""
    process, base = start_server(server_database)
    yield base
    stop_server(process)
    base.output.unlink(missing_ok=True)
