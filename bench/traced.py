"""The service with tracemalloc on, for finding what grows in a worker (bench/leak.py).

A server process imports ``hearthlog`` as its app factory (as bench/served.py's): tracemalloc
starts first, and every HEARTHLOG_TRACE_SECONDS the worker writes a snapshot into the folder
HEARTHLOG_TRACE_DIR (snap-<n>.trace), so the growth can be compared snapshot to snapshot, and
beside it what holds a match's memory now (count-<n>.json): the live feeds, their changes and
the updates served from them, and the matches the state cache holds (each bounded: a growth that
follows one of them is that bound filling), and every feed object still in memory, whether its
hub holds it or it waits for the cyclic collector (more of these than the hub's feeds is memory
that only a collection gives back). Both are taken on the event loop, between requests: a thread
walking the process's objects could catch one half built.
"""

from __future__ import annotations

import asyncio
import json
import os
import tracemalloc
import weakref
from pathlib import Path
from typing import Any

from litestar import Litestar

from bench.served import hearthlog as served
from service.http.bootstrap import started
from service.live.feed import Feed

FRAMES = 12
MADE: weakref.WeakSet[Feed] = weakref.WeakSet()  # every feed made and not yet freed


def _counted(original: Any) -> Any:
    """Feed's constructor, each feed it makes noted in MADE."""
    def init(self: Feed, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        MADE.add(self)
    return init


def counts(app: Litestar) -> dict[str, int]:
    """What the app's feeds and state cache hold now (nothing before its start-up)."""
    made = started(app)
    if made is None:
        return {}
    return {**made.hub.held(), "feeds in memory": len(MADE),
            "state cache entries": len(made.matches.cache)}


async def _snapshots(app: Litestar, folder: Path, every: float) -> None:
    """Write a snapshot and the counts every ``every`` seconds, until the worker stops."""
    for n in range(1_000_000):
        await asyncio.sleep(every)
        tracemalloc.take_snapshot().dump(str(folder / f"snap-{n:04d}.trace"))
        (folder / f"count-{n:04d}.json").write_text(json.dumps(counts(app)))


def hearthlog() -> Litestar:
    """The service, traced."""
    tracemalloc.start(FRAMES)
    Feed.__init__ = _counted(Feed.__init__)  # type: ignore[method-assign]
    folder = Path(os.environ["HEARTHLOG_TRACE_DIR"])
    every = float(os.environ.get("HEARTHLOG_TRACE_SECONDS", "30"))
    app = served()
    tasks: list[asyncio.Task[None]] = []

    def trace(app: Litestar) -> None:
        """Start the snapshots on the worker's loop."""
        tasks.append(asyncio.get_running_loop().create_task(_snapshots(app, folder, every)))

    def stop() -> None:
        """Stop them."""
        for task in tasks:
            task.cancel()

    app.on_startup.append(trace)
    app.on_shutdown.append(stop)
    return app
