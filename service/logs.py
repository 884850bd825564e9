"""One structured line per request: method, path, status, match, seat, duration.

Never a header, a body, a token, a seed or a card: only what the line's fields name.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from contextvars import ContextVar

import msgspec
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.store.provisioning import OUTAGE, UNAVAILABLE

access = logging.getLogger("hearthlog.access")
current_seat: ContextVar[int | None] = ContextVar("current_seat", default=None)
current_read: ContextVar[str | None] = ContextVar("current_read", default=None)  # service.reads
_MATCH = re.compile(r"^/matches/([0-9a-fA-F-]{36})(?:/|$)")
_PLAIN = re.compile(r"[a-z][a-z-]{0,23}|[0-9]{1,9}|")  # a route word, a version, or nothing


class AccessLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The fields of one access-log line."""

    method: str
    path: str
    status: int
    duration_ms: float
    match: str | None = None
    seat: int | None = None
    read: str | None = None  # which database served a routed read: "primary" or "standby"


class AccessLog:
    """Logs every HTTP request once it has been answered, the router's refusals included.

    It wraps the whole application (service.http.front), outside litestar's router, so a 404 for an
    unknown path, a 405 or a HEAD gets its line too. The path logged is the route's template
    (``/matches/{match_id}/view``, the match in its own field); a path no route matched keeps
    only its plain segments: a token put in a path by mistake is never logged.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Time the request, note its status, and log one line."""
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        seat, read = current_seat.set(None), current_read.set(None)
        path = scope["path"]

        async def note_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, note_status)
        finally:
            found = _MATCH.match(path)
            line = AccessLine(
                method=scope["method"],
                path=logged_path(scope, path),
                status=status,
                duration_ms=round((time.perf_counter() - started) * 1000, 2),
                match=found.group(1) if found else None,
                seat=current_seat.get(),
                read=current_read.get(),
            )
            current_seat.reset(seat)
            current_read.reset(read)
            access.info(msgspec.json.encode(line).decode())


def logged_path(scope: Scope, path: str) -> str:
    """The route's template, else the path with every segment but plain words and numbers
    blanked (``*``)."""
    template = scope.get("path_template")
    if template:
        return str(template)
    return "/".join(part if _PLAIN.fullmatch(part) else "*" for part in path.split("/"))


def configure(level: int = logging.INFO) -> None:
    """Send the access log to stderr, one JSON object per line; asyncpg's pool says in one line
    that it could not reconnect while the database is away."""
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
