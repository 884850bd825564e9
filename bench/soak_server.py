"""The soak's server: one `hearthlog serve --workers W` on loopback, and what it holds.

Its memory is the proportional set size (PSS: shared pages split between the processes sharing
them) of the serving process and its workers, and of the Postgres processes when the Postgres is
the soak's own; the connections held are its workers' established TCP connections on its port.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psutil

from tests.servers import ONE_ADDRESS, free_port, until_healthy

STARTUP_SECONDS = 120
ERRORS_SHOWN = 6000
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Soaked:
    """A running server: its process, port, worker count, database, and memory readings."""

    def __init__(self, process: subprocess.Popen, port: int, workers: int, database_url: str,
                 postgres_dir: str | None) -> None:
        self.process, self.port, self.workers = process, port, workers
        self.database_url, self.postgres_dir = database_url, postgres_dir

    def processes(self) -> list[psutil.Process]:
        """The serving process and its workers."""
        main = psutil.Process(self.process.pid)
        return [main, *main.children(recursive=True)]

    def postgres(self) -> list[psutil.Process]:
        """The Postgres server's processes, if it is the soak's own."""
        if self.postgres_dir is None:
            return []
        for process in psutil.process_iter(["cmdline"]):
            if self.postgres_dir in " ".join(process.info["cmdline"] or []):
                return [process, *process.children()]
        return []

    def memory(self) -> dict[str, int]:
        """PSS and RSS (bytes) of the server and of Postgres, and the server's connections."""
        def total(processes: list[psutil.Process], field: str) -> int:
            """One memory field summed over processes still alive."""
            found = 0
            for process in processes:
                with contextlib.suppress(psutil.Error):
                    found += getattr(process.memory_full_info(), field)
            return found

        server = self.processes()
        held = 0
        for process in server[1:]:
            with contextlib.suppress(psutil.Error):
                held += sum(1 for c in process.net_connections("tcp")
                            if c.status == psutil.CONN_ESTABLISHED and c.laddr.port == self.port)
        return {"server_pss": total(server, "pss"), "server_rss": total(server, "rss"),
                "postgres_pss": total(self.postgres(), "pss"), "server_connections": held}


def socket_dir(url: str) -> str | None:
    """The embedded Postgres's data folder (its socket folder) named by its URL."""
    return (parse_qs(urlsplit(url).query).get("host") or [None])[0]


@contextlib.contextmanager
def start_server(url: str, workers: int | None, own: bool) -> Iterator[Soaked]:
    """`hearthlog serve` on ``url`` until the with-block ends; then stopped, nothing left."""
    port, log = free_port(), Path(tempfile.mkstemp(prefix="hearthlog-soak-", suffix=".log")[1])
    command = [sys.executable, "-m", "service.cli.main", "serve", "--port", str(port),
               "--database-url", url, *(["--workers", str(workers)] if workers else [])]
    env = {**os.environ, **ONE_ADDRESS, "HEARTHLOG_STREAMS": "100000"}
    with log.open("w") as sink:
        process = subprocess.Popen(command, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        until_healthy(f"http://127.0.0.1:{port}", process, STARTUP_SECONDS,
                      lambda: log.read_text()[-2000:])
        time.sleep(2)  # every worker up, not only the first to answer
        count = len(psutil.Process(process.pid).children())
        yield Soaked(process, port, count, url, socket_dir(url) if own else None)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        print(f"server log: {log} ({log.stat().st_size} bytes)", file=sys.stderr)
        if errors := logged_errors(log.read_text(errors="replace")):
            print(f"the server logged errors (the first {ERRORS_SHOWN} characters):\n"
                  f"{errors[:ERRORS_SHOWN]}", file=sys.stderr)


def logged_errors(text: str) -> str:
    """Every ERROR record of the server's output with the lines that follow it (its traceback),
    up to the next record: a line that starts with a level or an access line (a JSON object)."""
    found, keep = [], False
    for line in text.splitlines():
        level = line.split(" ", 1)[0].strip("[]:")
        if level in LEVELS or line.startswith("{"):
            keep = level in ("ERROR", "CRITICAL")
        if keep:
            found.append(line)
    return "\n".join(found)
