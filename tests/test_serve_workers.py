"""`hearthlog serve --workers N`: the pool each worker gets, and a stop that leaves nothing running.

The embedded Postgres is started once, by the serving process, before the workers; SIGTERM or
SIGINT stops the workers and then that Postgres: no worker and no Postgres process is left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from service.http.serving import SPARE, DoesNotFit, share, worker_count
from tests.servers import free_port, until_healthy

HEARTHLOG = [sys.executable, "-m", "service.cli.main"]


def test_each_worker_gets_the_largest_pool_that_fits_the_databases_connections():
    """Given Postgres's default 100 connections (3 reserved), then 2 workers get pools of 32 (66
    held), 4 get 20 (84), and 30 workers cannot fit a pool of 2 each: refused, naming the way
    out."""
    assert share(100, 3, 2).pool == 32 and share(100, 3, 2).held == 66
    assert share(100, 3, 4).pool == 20 and share(100, 3, 4).held == 84
    assert share(100, 3, 4).held <= 100 - 3 - SPARE
    with pytest.raises(DoesNotFit, match="max_connections"):
        share(100, 3, 30)


def test_the_worker_count_comes_from_the_option_else_the_environment_else_the_cores(monkeypatch):
    """Given --workers, it wins; without it HEARTHLOG_WORKERS; without either one per core; a
    count that is not a whole number of 1 or more is refused."""
    monkeypatch.setenv("HEARTHLOG_WORKERS", "3")
    assert worker_count(5) == 5 and worker_count(None) == 3
    monkeypatch.setenv("HEARTHLOG_WORKERS", "none")
    with pytest.raises(DoesNotFit, match="HEARTHLOG_WORKERS"):
        worker_count(None)
    monkeypatch.delenv("HEARTHLOG_WORKERS")
    assert worker_count(None) == len(os.sched_getaffinity(0))


def running_on(data_dir: Path) -> list[psutil.Process]:
    """Every process whose command line names the data folder (the workers, Postgres)."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if any(str(data_dir) in part for part in process.info["cmdline"] or []):
            found.append(process)
    return found


@pytest.mark.parametrize("server, stop", [
    ("granian", signal.SIGTERM),
    pytest.param("granian", signal.SIGINT, marks=pytest.mark.slow),
    pytest.param("uvicorn", signal.SIGTERM, marks=pytest.mark.slow),
])
def test_a_stopped_server_leaves_no_worker_and_no_postgres_running(tmp_path, server, stop):
    """Given `hearthlog serve --workers 2` on its own embedded Postgres, when it gets SIGTERM (or
    SIGINT), then it exits 0 and no worker, no Postgres process and no postmaster.pid is left."""
    data, port = tmp_path / "data", free_port()
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    process = subprocess.Popen(
        [*HEARTHLOG, "serve", "--data-dir", str(data), "--port", str(port), "--workers", "2",
         "--server", server], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        until_healthy(f"http://127.0.0.1:{port}", process, 120)
        children = psutil.Process(process.pid).children(recursive=True)
        postgres = [p for p in running_on(data) if p.name().startswith("postgres")]
        assert len(children) >= 2 and postgres, "two workers and an embedded Postgres"
        process.send_signal(stop)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
    _, alive = psutil.wait_procs([*children, *postgres], timeout=20)
    assert alive == [] and running_on(data) == []
    assert not (data / "pgdata" / "postmaster.pid").exists()
