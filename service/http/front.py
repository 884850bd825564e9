"""What wraps the whole application, outside litestar's router: every request passes here.

From the outside in: the client's address from a trusted proxy's X-Forwarded-For (uvicorn's
ProxyHeadersMiddleware, only when HEARTHLOG_TRUSTED_PROXIES names the proxies), the access log
(one line per request, the router's refusals included), the security headers on every answer,
then the per-client limits, then the cut of a client that stops reading its answer, then the
app. Wrapping ``asgi_handler`` keeps litestar's own exception handling, CORS and hooks inside.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import cast

from litestar import Litestar
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from service.http.api.docs_page import DOCS_POLICY
from service.http.bootstrap import started
from service.http.limits import ClientLimits, Identify, Limits
from service.logs import AccessLog, logged_path
from service.sources import Clock, wall_clock


def wrap(app: Litestar, limits: Limits, clock: Clock = wall_clock) -> None:
    """Put the access log, the per-client limits (their windows run by ``clock``) and (if
    configured) the proxy headers around the app's handler."""
    def apps() -> Identify | None:
        running = started(app)
        return running.apps.identify if running is not None else None

    handler: ASGIApp = AccessLog(SecurityHeaders(ClientLimits(
        SlowReaders(app.asgi_handler, limits.send_seconds), limits, apps, clock)))
    proxies = os.environ.get("HEARTHLOG_TRUSTED_PROXIES")
    if proxies:
        # uvicorn's middleware is typed with uvicorn's own ASGI protocol types, litestar's
        # handler with litestar's: the same ASGI callable under two declarations.
        handler = ProxyHeadersMiddleware(handler, trusted_hosts=proxies)  # type: ignore[arg-type,assignment]
    app.asgi_handler = handler


log = logging.getLogger("hearthlog.front")


class Stalled(Exception):
    """The client read nothing of its answer for the allowed time."""


class SlowReaders:
    """Cuts an answer whose client reads none of it for ``seconds`` (HEARTHLOG_SEND_SECONDS).

    A part of the body waits in the server's buffers until the client reads; one that is never
    read would hold whatever the answer holds (a bulk export its database connection) for good.
    The connection is closed without the answer's end, so the client can tell it was cut.
    """

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app, self.seconds = app, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request, each part of its answer sent within the time or the answer cut."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def bounded(message: Message) -> None:
            try:
                async with asyncio.timeout(self.seconds):
                    await send(message)
            except TimeoutError:
                raise Stalled from None

        try:
            await self.app(scope, receive, bounded)
        except Exception as error:
            chain = errors_in(error)
            if not any(isinstance(found, Stalled) for found in chain):
                raise
            for found in chain:  # its frames hold the answer's generator (an export's slot and
                found.__traceback__ = None  # connection): freed now, not at the next full GC
            log.warning("cut %s %s: its client read nothing for %g s (HEARTHLOG_SEND_SECONDS)",
                        scope.get("method"), logged_path(scope, scope["path"]), self.seconds)


def errors_in(error: BaseException) -> list[BaseException]:
    """The error, its causes and contexts, and the errors of any group among them."""
    found: list[BaseException] = []
    todo = [error]
    while todo:
        each = todo.pop()
        if any(each is seen for seen in found):
            continue
        found.append(each)
        todo += [e for e in (each.__cause__, each.__context__) if e is not None]
        todo += list(getattr(each, "exceptions", ()))
    return found


# Every answer: no MIME sniffing, no framing, no referrer, its own browsing context.
ALWAYS = ((b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
          (b"referrer-policy", b"no-referrer"), (b"cross-origin-opener-policy", b"same-origin"))
API_POLICY = b"default-src 'none'; frame-ancestors 'none'"  # JSON: nothing to load or run
PAGE_POLICY = b"default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")


class SecurityHeaders:
    """The standard security headers on every answer; an answer that sets its own
    Content-Security-Policy (a page with its own needs) keeps it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Add the headers to the answer's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *headers_for(scope, message)]
            await send(message)

        await self.app(scope, receive, with_headers)


def headers_for(scope: Scope, message: Message) -> list[tuple[bytes, bytes]]:
    """The security headers an answer lacks: the standard ones, a policy fit for what it is."""
    given = cast("list[tuple[bytes, bytes]]", message.get("headers", []))
    present = {name.lower(): value for name, value in given}
    added = [pair for pair in ALWAYS if pair[0] not in present]
    if b"content-security-policy" not in present:
        html = present.get(b"content-type", b"").startswith(b"text/html")
        docs = scope["path"].startswith("/docs")
        policy = DOCS_POLICY.encode() if html and docs else PAGE_POLICY if html else API_POLICY
        added.append((b"content-security-policy", policy))
    if scope.get("scheme") == "https":
        added.append(HSTS)
    return added
