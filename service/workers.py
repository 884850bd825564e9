"""Pure work spread over worker processes, its answers in the order asked (`hearthlog verify`)."""

from __future__ import annotations

import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from types import FrameType
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
    with kept_interrupts() as check:
        if jobs <= 1:
            for item in items:
                check()
                yield work(item)
            return
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_leave_interrupts_to_the_caller)
        pending: deque[Future[R]] = deque()
        try:
            for item in items:
                check()
                pending.append(_submitted(pool, work, item, first=not pending))
                if len(pending) >= jobs * AHEAD:
                    yield pending.popleft().result()
            while pending:
                check()
                yield pending.popleft().result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def kept_interrupts() -> Iterator[Callable[[], None]]:
    """Ctrl-C raises KeyboardInterrupt as usual and is remembered too: the ``check`` this yields
    raises it again. Python drops a KeyboardInterrupt raised while a finalizer or a weakref
    callback runs ("Exception ignored"), so without this a Ctrl-C can be lost and the work go on
    to its end. (In the main thread only, where Python runs signal handlers.)"""
    seen = threading.Event()

    def interrupted(_signal: int, _frame: FrameType | None) -> None:
        """Remember the interrupt, then raise it as Python's own handler does."""
        seen.set()
        raise KeyboardInterrupt

    def check() -> None:
        """Raise KeyboardInterrupt if Ctrl-C came, even if its first raising was lost."""
        if seen.is_set():
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield check
        return
    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, previous)


def _submitted(pool: ProcessPoolExecutor, work: Callable[[T], R], item: T, first: bool
               ) -> Future[R]:
    """Submit one item. The first submit forks every worker: Ctrl-C is held back while it does,
    so a worker never gets one before it ignores them (it would die, and the pool with it); the
    caller gets it once the workers are made."""
    if not first:
        return pool.submit(work, item)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return pool.submit(work, item)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _leave_interrupts_to_the_caller() -> None:
    """In a worker: Ctrl-C stops the caller, which cancels the rest; the worker prints nothing
    (forked with Ctrl-C held back, it takes none before it ignores them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
