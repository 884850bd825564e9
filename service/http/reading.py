"""Reading a request's body: JSON by its Content-Type, whole within a time, or refused.

granian bounds the time to send the headers (HEARTHLOG_HEADER_SECONDS) but not the body; a
client that sends half a body and stalls would hold its connection and its handler for ever.
Here the body must be complete within HEARTHLOG_BODY_SECONDS of the request's start (408
after), a body that ends early or is malformed (the server sees the connection end) gets 400
without a traceback in the log, and a body that says it is not JSON gets 415.
"""

from __future__ import annotations

import asyncio

from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Receive, ReceiveMessage, Scope, Send

from service.errors import ServiceError
from service.http.limits import answer


class BodyReading(ASGIMiddleware):
    """The body within the time allowed, from a client that stays (app middleware)."""

    scopes = (ScopeType.HTTP,)

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        """Refuse a body that is not said to be JSON; read the rest within the deadline."""
        headers = dict(scope["headers"])
        if not carries_body(headers):
            await next_app(scope, receive, send)
            return
        check_json(headers.get(b"content-type", b"").decode("latin-1"))
        deadline = asyncio.get_running_loop().time() + self.seconds
        try:
            await next_app(scope, within(receive, deadline, self.seconds), send)
        except Unread as refusal:  # answered here: cheaper than the framework's error path
            await answer(send, refusal)


class Unread(ServiceError):
    """The body came too late, or not whole."""


def carries_body(headers: dict[bytes, bytes]) -> bool:
    """Whether the request has a body (declared by its length, or sent in chunks)."""
    length = headers.get(b"content-length", b"0")
    return length not in (b"0", b"") or b"transfer-encoding" in headers


def check_json(content_type: str) -> None:
    """415 unless the Content-Type is JSON (application/json, or an application/*+json type)."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media == "application/json" or (media.startswith("application/") and media.endswith("+json")):  # noqa: E501
        return
    said = f"'{content_type}'" if content_type else "none"
    raise ServiceError(415, "the body must be JSON, sent with 'Content-Type: application/json' "
                       f"(this request's Content-Type: {said})")


def within(receive: Receive, deadline: float, seconds: float) -> Receive:
    """``receive`` bounded by the deadline until the body is complete, unchanged after it."""
    done = False

    async def receive_body() -> ReceiveMessage:
        """The next part of the body, or the refusal of a body that is late or cut short."""
        nonlocal done
        if done:
            return await receive()
        try:
            async with asyncio.timeout_at(deadline):
                message = await receive()
        except TimeoutError:
            raise Unread(408, f"the body was not received within {seconds:g} s "
                               "(HEARTHLOG_BODY_SECONDS)") from None
        if message["type"] == "http.disconnect":
            raise Unread(400, "the body could not be read: the connection ended before "
                               "it was complete, or its chunked encoding is malformed")
        done = not message.get("more_body", False)
        return message

    return receive_body
