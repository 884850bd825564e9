"""A real server process on loopback, on its own migrated database, for end-to-end tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from service.postgres import create_database, drop_database

STARTUP_SECONDS = 60


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server(str):
    """A running server's base URL, with its process and the file its output goes to."""

    process: subprocess.Popen
    output: Path


def start_server(database_url: str) -> tuple[subprocess.Popen, Server]:
    """Start `hearthlog serve` on a free loopback port and wait until /health answers."""
    port = free_port()
    output = Path(tempfile.mkstemp(prefix="hearthlog-server-", suffix=".log")[1])
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--database-url", database_url],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=output.open("w"), stderr=subprocess.STDOUT,
    )
    base = Server(f"http://127.0.0.1:{port}")
    base.process, base.output = process, output
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {output.read_text()}")
        try:
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not answer /health in time")


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
