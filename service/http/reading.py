"""Reading a request's body: JSON by its Content-Type, whole within a time, or refused.

granian bounds the time to send the headers (HEARTHLOG_HEADER_SECONDS) but not the body; a
client that sends half a body and stalls would hold its connection and its handler for ever.
Here the body must be complete within HEARTHLOG_BODY_SECONDS of the request's start (408
after), a body that ends early or is malformed (the server sees the connection end) gets 400
without a traceback in the log, and a body that says it is not JSON gets 415. The front
(service.http.front) checks the Content-Type and hands the app ``Body.receive``; one timer per
body keeps the deadline, rather than a timeout around every part received.
"""

from __future__ import annotations

import asyncio

from litestar.types import Receive, ReceiveMessage

from service.errors import ServiceError


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


class Body:
    """A request's ``receive`` bounded by one deadline until its body is complete, unchanged
    after it: when the deadline passes, the task waiting for the body is interrupted and gets
    the 408 (``refused`` then says so, for the front to close the connection)."""

    def __init__(self, receive: Receive, seconds: float) -> None:
        self.inner, self.seconds = receive, seconds
        self.done = self.late = self.refused = False
        self.waiting: asyncio.Task[object] | None = None
        self.timer = asyncio.get_running_loop().call_later(seconds, self._expire)

    def _expire(self) -> None:
        """The deadline: interrupt the wait for the body, if any (else the next one fails)."""
        self.late = True
        if self.waiting is not None:
            self.waiting.cancel()

    def close(self) -> None:
        """The request is over: its deadline no longer matters."""
        self.timer.cancel()

    async def receive(self) -> ReceiveMessage:
        """The next part of the body, or the refusal of a body that is late or cut short."""
        if self.done:
            return await self.inner()
        if self.late:
            raise self._refuse(408)
        task = self.waiting = asyncio.current_task()
        try:
            message = await self.inner()
        except asyncio.CancelledError:
            if self.late and task is not None and task.uncancel() == 0:
                raise self._refuse(408) from None
            raise
        finally:
            self.waiting = None
        if message["type"] == "http.disconnect":
            raise self._refuse(400)
        self.done = not message.get("more_body", False)
        if self.done:
            self.timer.cancel()
        return message

    def _refuse(self, status: int) -> Unread:
        """The refusal: 408 for a late body, 400 for one cut short."""
        self.refused = True
        if status == 408:
            return Unread(408, f"the body was not received within {self.seconds:g} s "
                               "(HEARTHLOG_BODY_SECONDS)")
        return Unread(400, "the body could not be read: the connection ended before it was "
                           "complete, or its chunked encoding is malformed")
