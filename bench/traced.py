"""The service with tracemalloc on, for finding what grows in a worker (bench/leak.py).

A server process imports ``hearthlog`` as its app factory (as bench/served.py's): tracemalloc
starts first, and a thread writes a snapshot every HEARTHLOG_TRACE_SECONDS into the folder
HEARTHLOG_TRACE_DIR (snap-<n>.trace), so the growth can be compared snapshot to snapshot.
"""

from __future__ import annotations

import os
import threading
import time
import tracemalloc
from pathlib import Path

from litestar import Litestar

from bench.served import hearthlog as served

FRAMES = 12


def _snapshots(folder: Path, every: float) -> None:
    """Write a snapshot every ``every`` seconds, forever (a daemon thread)."""
    for n in range(1_000_000):
        time.sleep(every)
        tracemalloc.take_snapshot().dump(str(folder / f"snap-{n:04d}.trace"))


def hearthlog() -> Litestar:
    """The service, traced."""
    tracemalloc.start(FRAMES)
    folder = Path(os.environ["HEARTHLOG_TRACE_DIR"])
    every = float(os.environ.get("HEARTHLOG_TRACE_SECONDS", "30"))
    threading.Thread(target=_snapshots, args=(folder, every), daemon=True).start()
    return served()
