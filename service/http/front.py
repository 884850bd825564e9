"""What wraps the whole application, outside litestar's router: every request passes here.

One wrapper, ``Front``, does for every request what five layers did (issue 33,
docs/benchmarks.md): it times the request for its access line (the router's refusals included),
counts it against its client's limits (service.http.limits) and adds their RateLimit fields,
refuses a body that is not JSON and bounds the body's time (service.http.reading), adds the
security headers to the answer, and cuts an answer its client stops reading. Outside it, only
uvicorn's ProxyHeadersMiddleware when HEARTHLOG_TRUSTED_PROXIES names the proxies. Wrapping
``asgi_handler`` keeps litestar's own exception handling, CORS and hooks inside.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import types
from collections.abc import Generator
from typing import Any, cast

from litestar import Litestar
from litestar.types import ASGIApp, HTTPScope, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from service.errors import ServiceError
from service.http.api.docs_page import DOCS_POLICY
from service.http.bootstrap import started
from service.http.limits import ClientLimits, Identify, Limits, Refusal, answer
from service.http.reading import Body, carries_body, check_json
from service.logs import AccessLine, current_read, current_seat, logged_path, match_in, write_access
from service.sources import Clock, wall_clock


def wrap(app: Litestar, limits: Limits, clock: Clock = wall_clock) -> None:
    """Put the front (its client windows run by ``clock``) and, if configured, the proxy
    headers around the app's handler."""
    def apps() -> Identify | None:
        running = started(app)
        return running.apps.identify if running is not None else None

    handler: ASGIApp = Front(app.asgi_handler, limits,
                             ClientLimits(app.asgi_handler, limits, apps, clock))
    proxies = os.environ.get("HEARTHLOG_TRUSTED_PROXIES")
    if proxies:
        # uvicorn's middleware is typed with uvicorn's own ASGI protocol types, litestar's
        # handler with litestar's: the same ASGI callable under two declarations.
        handler = ProxyHeadersMiddleware(handler, trusted_hosts=proxies)  # type: ignore[arg-type,assignment]
    app.asgi_handler = handler


CLOSE = (b"connection", b"close")


class Front:
    """Every HTTP request once: timed and logged, counted, its body bounded, its answer given
    the security and RateLimit headers and sent within HEARTHLOG_SEND_SECONDS a part."""

    def __init__(self, app: ASGIApp, limits: Limits, clients: ClientLimits) -> None:
        self.app, self.clients = app, clients
        self.body_seconds, self.send_seconds = limits.body_seconds, limits.send_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request through every check; log its line however it ends."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started_at = time.perf_counter()
        seat, read = current_seat.set(None), current_read.set(None)
        status = 500
        extra: list[tuple[bytes, bytes]] = []
        seconds = self.send_seconds

        async def respond(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()),
                                      *headers_for(scope, message), *extra]
            await send_within(send, message, seconds)

        try:
            await self._serve(scope, receive, respond, extra)
        except Exception as error:
            cut(error, scope, seconds)
        finally:
            write_access(AccessLine(
                method=cast("HTTPScope", scope)["method"], path=logged_path(scope, scope["path"]),
                status=status,
                duration_ms=round((time.perf_counter() - started_at) * 1000, 2),
                match=match_in(scope["path"]), seat=current_seat.get(), read=current_read.get()))
            current_seat.reset(seat)
            current_read.reset(read)

    async def _serve(self, scope: Scope, receive: Receive, respond: Send,
                     extra: list[tuple[bytes, bytes]]) -> None:
        """Admit the request (or refuse it), then let the app answer it with its body bounded."""
        try:
            address, fields = await self.clients.admit(scope)
        except Refusal as refusal:
            await answer(respond, refusal.error, refusal.fields)
            return
        extra += fields
        body = None
        try:
            headers = dict(scope["headers"])
            if carries_body(headers):
                try:
                    check_json(headers.get(b"content-type", b"").decode("latin-1"))
                except ServiceError as error:  # never read: the connection is closed
                    await answer(respond, error)
                    return
                body = Body(receive, self.body_seconds)
                receive = body.receive
            await self.app(scope, receive, self._closing(respond, body, extra))
        finally:
            if body is not None:
                body.close()
            self.clients.release(address)

    @staticmethod
    def _closing(respond: Send, body: Body | None, extra: list[tuple[bytes, bytes]]) -> Send:
        """``respond``, closing the connection after an answer to a body refused (late or cut
        short: the rest of it is never read)."""
        if body is None:
            return respond

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start" and body.refused:
                extra.append(CLOSE)
            await respond(message)

        return closing


log = logging.getLogger("hearthlog.front")


class Stalled(Exception):
    """The client read nothing of its answer for the allowed time."""


class SlowReaders:
    """Cuts an answer whose client reads none of it for ``seconds`` (HEARTHLOG_SEND_SECONDS).

    A part of the body waits in the server's buffers until the client reads; one that is never
    read would hold whatever the answer holds (a bulk export its database connection) for good.
    The connection is closed without the answer's end, so the client can tell it was cut. (The
    front does the same in its own wrapper; this one stands alone.)
    """

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app, self.seconds = app, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request, each part of its answer sent within the time or the answer cut."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def bounded(message: Message) -> None:
            await send_within(send, message, self.seconds)

        try:
            await self.app(scope, receive, bounded)
        except Exception as error:
            cut(error, scope, self.seconds)


async def send_within(send: Send, message: Message, seconds: float) -> None:
    """Send one part of an answer, or raise Stalled when its client reads none of it for
    ``seconds``: only a send still waiting after its first step is timed (docs/limits.md)."""
    steps = send(message).__await__()
    try:
        waited_on = next(steps)
    except StopIteration:  # taken at once, as the server takes almost every part: no timer
        return
    try:
        async with asyncio.timeout(seconds):
            await resumed(steps, waited_on)
    except TimeoutError:
        raise Stalled from None
    finally:  # granian's wait holds this task; a traceback the task holds keeps this frame
        del steps, waited_on


@types.coroutine
def resumed(steps: Generator[Any, Any, Any], waited_on: object) -> Generator[Any, Any, Any]:
    """The rest of an awaitable whose first step gave ``waited_on``: ``yield from`` as PEP 380
    spells it, entered after that step (a server's awaitable may lack send, throw and close).
    Its frame lets the awaitable go when it ends, as ``send_within``'s does."""
    try:
        while True:
            try:
                sent = yield waited_on
            except GeneratorExit:
                if hasattr(steps, "close"):
                    steps.close()
                raise
            except BaseException as error:  # a cancellation, the timer's included: to the send
                if not hasattr(steps, "throw"):
                    raise
                try:
                    waited_on = steps.throw(error)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    waited_on = next(steps) if sent is None else steps.send(sent)
                except StopIteration as done:
                    return done.value
    finally:
        del steps, waited_on


def cut(error: Exception, scope: Scope, seconds: float) -> None:
    """An answer cut because its client read nothing for ``seconds`` is logged in one line and
    its frames freed; any other error is raised again."""
    chain = errors_in(error)
    if not any(isinstance(found, Stalled) for found in chain):
        raise error
    for found in chain:  # its frames hold the answer's generator (an export's slot and
        found.__traceback__ = None  # connection): freed now, not at the next full GC
    log.warning("cut %s %s: its client read nothing for %g s (HEARTHLOG_SEND_SECONDS)",
                scope.get("method"), logged_path(scope, scope["path"]), seconds)


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
