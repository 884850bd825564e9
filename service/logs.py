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
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

access = logging.getLogger("hearthlog.access")
current_seat: ContextVar[int | None] = ContextVar("current_seat", default=None)
_MATCH = re.compile(r"^/matches/([0-9a-fA-F-]{36})(?:/|$)")


class AccessLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The fields of one access-log line."""

    method: str
    path: str
    status: int
    duration_ms: float
    match: str | None = None
    seat: int | None = None


class AccessLog(ASGIMiddleware):
    """Logs every HTTP request once it has been answered."""

    scopes = (ScopeType.HTTP,)

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        """Time the request, note its status, and log one line."""
        started = time.perf_counter()
        status = 500
        seat = current_seat.set(None)

        async def note_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await next_app(scope, receive, note_status)
        finally:
            found = _MATCH.match(scope["path"])
            line = AccessLine(
                method=scope["method"],
                path=scope["path"],
                status=status,
                duration_ms=round((time.perf_counter() - started) * 1000, 2),
                match=found.group(1) if found else None,
                seat=current_seat.get(),
            )
            current_seat.reset(seat)
            access.info(msgspec.json.encode(line).decode())


def configure(level: int = logging.INFO) -> None:
    """Send the access log to stderr, one JSON object per line."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    access.handlers[:] = [handler]
    access.setLevel(level)
    access.propagate = False
