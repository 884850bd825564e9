"""Pure work spread over worker processes, its answers in the order asked (`hearthlog verify`)."""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

AHEAD = 16  # items in flight per worker: enough to keep each busy, few enough to bound memory


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def ordered_map(work: Callable[[T], R], items: Iterable[T], jobs: int) -> Iterator[R]:
    """``work`` of each item, in the items' order, computed by ``jobs`` processes.

    Items are read only as answers are taken (at most AHEAD per worker in flight), so a file of
    any size streams through in bounded memory. With one job, everything runs in this process.
    """
    if jobs <= 1:
        yield from map(work, items)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_leave_interrupts_to_the_caller)
    pending: deque[Future[R]] = deque()
    try:
        for item in items:
            pending.append(pool.submit(work, item))
            if len(pending) >= jobs * AHEAD:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _leave_interrupts_to_the_caller() -> None:
    """In a worker: Ctrl-C stops the caller, which cancels the rest; the worker prints nothing."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
