"""Attack: a worker process killed (issue #34, defect 4).

kill -9 of one worker of `hearthlog serve --workers 2` ended the whole server, the other worker
too, and nothing restarted. granian now replaces a worker that dies (respawn_failed_workers):
the other keeps serving meanwhile, and a new worker takes the dead one's place. (A worker that
dies again within 5.5 s of being replaced is a crash loop: then granian stops.)
"""

from __future__ import annotations

import os
import signal
import time

import httpx
import psutil
import pytest

from tests.servers import serving

pytestmark = pytest.mark.slow
BOUND = 60.0  # how long the test waits for a new worker, at most


def workers_of(pid: int) -> list[psutil.Process]:
    """The serving process's worker processes."""
    return psutil.Process(pid).children()


def test_a_killed_worker_is_replaced_and_the_server_keeps_answering(server_database, figures):
    """Given `hearthlog serve --workers 2`, when one worker is killed with SIGKILL, then the
    server goes on answering /health (a connection queued for the dead worker may be refused
    once), a new worker replaces the dead one, and matches are created as before."""
    with serving(server_database, workers=2) as server:
        before = workers_of(server.process.pid)
        assert len(before) == 2, before
        os.kill(before[0].pid, signal.SIGKILL)
        killed_at = time.monotonic()
        deadline = killed_at + BOUND
        health, refused = None, 0
        while health is None and time.monotonic() < deadline:
            try:  # a connection the kernel had queued for the dead worker is lost with it
                health = httpx.get(f"{server}/health", timeout=5).status_code
            except httpx.TransportError:
                refused += 1
                time.sleep(0.1)
        answered_after = time.monotonic() - killed_at
        assert health == 200, server.output.read_text()[-2000:]
        while time.monotonic() < deadline:
            now = [p for p in workers_of(server.process.pid) if p.is_running()]
            if len(now) == 2 and before[0].pid not in {p.pid for p in now}:
                break
            time.sleep(0.2)
        replaced_after = time.monotonic() - killed_at
        assert server.process.poll() is None, server.output.read_text()[-2000:]
        assert before[0].pid not in {p.pid for p in now} and len(now) == 2, now
        for _ in range(10):  # the kernel spreads new connections over both workers
            created = httpx.post(f"{server}/matches", json={"game": "deathwick", "seats": 4},
                                 timeout=10)
            assert created.status_code == 201, created.text
    figures.update(health_answered_after_seconds=round(answered_after, 2),
                   health_refused_meanwhile=refused, replaced_within_seconds=round(replaced_after, 1))
