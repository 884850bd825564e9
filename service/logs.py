"""One structured line per request: method, path, status, match, seat, duration.

Never a header, a body, a token, a seed or a card: only what the line's fields name. The front
(service.http.front) times every request, the router's refusals included, and hands its line to
``write_access``. The path logged is the route's template (``/matches/{match_id}/view``, the match
in its own field); a path no route matched keeps only its plain segments (``logged_path``): a
token put in a path by mistake is never logged.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import queue
import re
import sys
import threading
import time
from contextvars import ContextVar

import msgspec
from litestar.types import Scope

from service.store.provisioning import OUTAGE, UNAVAILABLE

access = logging.getLogger("hearthlog.access")
current_seat: ContextVar[int | None] = ContextVar("current_seat", default=None)
current_read: ContextVar[str | None] = ContextVar("current_read", default=None)  # service.reads
_MATCH = re.compile(r"^/matches/([0-9a-fA-F-]{36})(?:/|$)")
_PLAIN = re.compile(r"[a-z][a-z-]{0,23}|[0-9]{1,9}|")  # a route word, a version, or nothing


def match_in(path: str) -> str | None:
    """The match a path is about (``/matches/<id>/...``), else None."""
    found = _MATCH.match(path)
    return found.group(1) if found else None


class AccessLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The fields of one access-log line."""

    method: str
    path: str
    status: int
    duration_ms: float
    match: str | None = None
    seat: int | None = None
    read: str | None = None  # which database served a routed read: "primary" or "standby"


class Lines:
    """Access lines written to a file descriptor by a thread of their own: the event loop only
    queues a line's bytes, and the thread, waking every ``every`` seconds rather than at each
    line (a wake per line cost the loop a hand-over of the GIL per request), writes whatever
    has queued in one write (docs/benchmarks.md, issue 33)."""

    def __init__(self, fd: int, every: float = 0.05) -> None:
        self.fd, self.every = fd, every
        self.queue: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self.lock = threading.Lock()  # the thread's writes and a flush at exit, one at a time
        threading.Thread(target=self._run, name="access-log", daemon=True).start()

    def put(self, line: bytes) -> None:
        """Queue one line (its newline included)."""
        self.queue.put(line)

    def _run(self) -> None:
        """Write what has queued, each batch in one write, then wait a little."""
        while True:
            self.flush()
            time.sleep(self.every)

    def flush(self) -> None:
        """Write what is queued now (every ``every`` seconds, and at exit)."""
        with self.lock:
            self._write(self._waiting())

    def _waiting(self) -> list[bytes]:
        """Every line queued now."""
        batch = []
        with contextlib.suppress(queue.Empty):
            while True:
                batch.append(self.queue.get_nowait())
        return batch

    def _write(self, batch: list[bytes]) -> None:
        """All of the batch, however many writes it takes; nothing if the file is gone."""
        data = memoryview(b"".join(batch))
        with contextlib.suppress(OSError):
            while data:
                data = data[os.write(self.fd, data):]


_lines: Lines | None = None  # set by configure: the served app's lines go to stderr


def _forget_lines() -> None:
    """In a forked child (a server's worker) the writer thread is not running: the child's own
    configure starts one; until then lines go through the logging module."""
    global _lines
    _lines = None


os.register_at_fork(after_in_child=_forget_lines)


def write_access(line: AccessLine) -> None:
    """Log one request's line: queued for the writer thread once configured, else through the
    logging module (a test's app in its own process)."""
    if not access.isEnabledFor(logging.INFO):
        return
    if _lines is not None:
        _lines.put(msgspec.json.encode(line) + b"\n")
    else:
        access.info(msgspec.json.encode(line).decode())


def logged_path(scope: Scope, path: str) -> str:
    """The route's template, else the path with every segment but plain words and numbers
    blanked (``*``)."""
    template = scope.get("path_template")
    if template:
        return str(template)
    return "/".join(part if _PLAIN.fullmatch(part) else "*" for part in path.split("/"))


def configure(level: int = logging.INFO) -> None:
    """Send the access log to stderr, one JSON object per line, written off the event loop;
    asyncpg's pool says in one line that it could not reconnect while the database is away."""
    global _lines
    if _lines is None:
        sys.stderr.flush()
        _lines = Lines(sys.stderr.fileno())
        atexit.register(_lines.flush)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    access.handlers[:] = [handler]
    access.setLevel(level)
    access.propagate = False
    pool = logging.getLogger("asyncpg.pool")
    if outage_in_one_line not in pool.filters:
        pool.addFilter(outage_in_one_line)


def outage_in_one_line(record: logging.LogRecord) -> bool:
    """A log record whose error is an outage (the database down, refusing, or not yet taking
    writes after a failover) is counted by OUTAGE (service.store.provisioning): the first of an
    outage is kept, in one line naming the error, the rest are dropped; anything else is left
    whole."""
    error = record.exc_info[1] if record.exc_info else None
    if not isinstance(error, UNAVAILABLE):
        return True
    if not OUTAGE.begins(f"asyncpg's pool: {record.msg}"):
        return False
    record.msg = f"{record.getMessage()}: database unavailable: {type(error).__name__}"
    record.args, record.exc_info, record.exc_text = None, None, None
    return True
