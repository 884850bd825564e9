"""Real `hearthlog serve` processes on loopback: start, kill -9, restart on the same port.

Each server runs in a process group of its own (its main process and granian's worker), so a
test can kill -9 the main process alone, as a crash or an operator would, and still leave no
process behind when it stops the server.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx

from service.cli.routing import free_port
from service.store.provisioning import create_database, drop_database

STARTUP_SECONDS = 90
# Every client of a test comes from 127.0.0.1, so the per-client limits (docs/limits.md) are
# raised for the suite's servers; the tests of those limits set their own (``env``).
ONE_ADDRESS = {"HEARTHLOG_REQUESTS_PER_MINUTE": "10000000", "HEARTHLOG_MATCHES_PER_HOUR": "10000000",
               "HEARTHLOG_STREAMS_PER_CLIENT": "100000", "HEARTHLOG_CONNECTIONS_PER_CLIENT": "100000"}


class Server(str):
    """A running server's base URL, with its process, port, database and output file."""

    process: subprocess.Popen
    output: Path
    port: int
    database_url: str
    workers: int


def launch(database_url: str, port: int | None = None, output: Path | None = None,
           startup_seconds: float = STARTUP_SECONDS, env: dict[str, str] | None = None,
           workers: int = 1, args: tuple[str, ...] = ()) -> Server:
    """Start a server (on ``port`` if given, with ``env`` added to the environment, in
    ``workers`` worker processes: one unless a test asks for more, with ``args`` added to its
    command line) and wait until /health answers 200; a server that does not is stopped before
    the error is raised."""
    port = port or free_port()
    output = output or Path(tempfile.mkstemp(prefix="hearthlog-server-", suffix=".log")[1])
    with output.open("a") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "service.cli.main", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--database-url", database_url, "--workers", str(workers),
             *args],
            env={**os.environ, "PYTHONUNBUFFERED": "1", **ONE_ADDRESS, **(env or {})},
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(f"http://127.0.0.1:{port}")
    server.process, server.output, server.port = process, output, port
    server.database_url, server.workers = database_url, workers
    try:
        wait_healthy(server, startup_seconds)
    except RuntimeError:
        stop(server)
        raise
    return server


@contextlib.contextmanager
def serving(database_url: str, **options: Any) -> Iterator[Server]:
    """A server for the length of a with-block (``options`` as for ``launch``): stopped after it,
    nothing of its process group left, its output file removed."""
    server = launch(database_url, **options)
    try:
        yield server
    finally:
        stop(server)
        server.output.unlink(missing_ok=True)


@contextlib.asynccontextmanager
async def copied_database(server_url: str, template: str, prefix: str) -> AsyncIterator[str]:
    """A database of its own for a test server, copied from the migrated template (its name
    starts with ``prefix``), dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    url = await create_database(server_url, name, template=template)
    try:
        yield url
    finally:
        await drop_database(server_url, name)


@contextlib.asynccontextmanager
async def served_copy(server_url: str, template: str, prefix: str,
                      **options: Any) -> AsyncIterator[Server]:
    """A server (``options`` as for ``launch``) on a database of its own copied from the
    migrated template: both gone after the block. One fixture of a test module's server."""
    async with copied_database(server_url, template, prefix) as url:
        with serving(url, **options) as server:
            yield server


def wait_healthy(server: Server, seconds: float = STARTUP_SECONDS) -> None:
    """Wait until the server's /health answers 200; fail if it exits or takes too long."""
    until_healthy(server, server.process, seconds, lambda: server.output.read_text()[-3000:])


def until_healthy(base: str, process: subprocess.Popen, seconds: float,
                  output: Any = lambda: "") -> None:
    """Wait until ``base``/health answers 200; RuntimeError (with ``output()``) if the process
    exits first or it takes longer than ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {output()}")
        try:
            if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer /health within {seconds} s")


def kill(server: Server) -> None:
    """kill -9 of the server's main process: no shutdown, no flushing, no goodbye."""
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=30)


def port_freed(server: Server, seconds: float = 20) -> bool:
    """Whether nothing answers on the server's port any more, within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
        except OSError:
            return True
        time.sleep(0.2)
    return False


def relaunch(server: Server) -> Server:
    """Start the server again on the same port, database and output file."""
    return launch(server.database_url, port=server.port, output=server.output,
                  workers=server.workers)


def stop(server: Server) -> None:
    """Stop a server, killing it if it does not stop in time; nothing of its group survives."""
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            kill(server)
    try:
        os.killpg(server.process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # the whole group is gone already
