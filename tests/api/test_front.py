"""The front's pieces on the command path (issue 33 item 3): one deadline per body, the access
line written by a thread of its own, a seat's token remembered by the token itself, and one
wrapper around the app.

No server here: each piece is driven directly (the served behaviour is tests/reliability/
test_limits.py's, tests/api/test_access_log.py's and tests/hostile/'s).
"""

from __future__ import annotations

import asyncio
import os

import pytest

from service.access import Access
from service.http.app import create_app
from service.http.front import Front
from service.http.reading import Body, Unread
from service.logs import Lines


def parts(*messages: dict) -> tuple[list[dict], object]:
    """A receive giving ``messages`` in turn, then waiting for ever (a client that stalls)."""
    given = list(messages)

    async def receive() -> dict:
        if given:
            return given.pop(0)
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    return given, receive


async def test_a_body_not_whole_by_its_deadline_is_408_and_marked_refused():
    """Given a body whose first half came and whose rest never comes, when its one deadline
    passes while the handler waits, then the wait ends in 408 naming the variable, and the body
    says it was refused (so the front closes the connection)."""
    _, receive = parts({"type": "http.request", "body": b'{"a":', "more_body": True})
    body = Body(receive, 0.01)
    assert (await body.receive())["body"] == b'{"a":'
    with pytest.raises(Unread) as refused:
        await body.receive()
    assert refused.value.status == 408 and "HEARTHLOG_BODY_SECONDS" in refused.value.message
    assert body.refused


async def test_a_whole_body_stops_its_deadline_and_later_receives_pass_through():
    """Given a body sent whole in two parts, when it has been read, then its timer is cancelled
    and the next receive (a disconnect, as a stream awaits) is the client's own message."""
    _, receive = parts({"type": "http.request", "body": b"{", "more_body": True},
                       {"type": "http.request", "body": b"}", "more_body": False},
                       {"type": "http.disconnect"})
    body = Body(receive, 60)
    assert [(await body.receive())["body"] for _ in range(2)] == [b"{", b"}"]
    assert body.timer.cancelled()
    assert (await body.receive())["type"] == "http.disconnect" and not body.refused


async def test_a_body_cut_short_is_400_and_a_cancelled_wait_stays_a_cancellation():
    """Given a client that disconnects mid-body, then 400; given a handler cancelled (its client
    gone) while it waits, then the cancellation goes on as a cancellation, not a 408."""
    _, gone = parts({"type": "http.disconnect"})
    with pytest.raises(Unread) as refused:
        await Body(gone, 60).receive()
    assert refused.value.status == 400
    _, stalled = parts()
    waiting = asyncio.ensure_future(Body(stalled, 60).receive())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


def test_access_lines_are_written_whole_and_in_order_by_their_own_thread():
    """Given a writer on a pipe, when lines are queued from this thread, then the pipe gets
    them all, whole and in order, as bytes."""
    read_end, write_end = os.pipe()
    try:
        lines = Lines(write_end)
        sent = [b'{"n":%d}\n' % n for n in range(500)]
        for line in sent:
            lines.put(line)
        got = b""
        while got.count(b"\n") < len(sent):
            got += os.read(read_end, 65536)
        assert got == b"".join(sent)
    finally:
        os.close(read_end)


class CountingSecrets:
    """The one store call a seat's token needs, counted."""

    def __init__(self) -> None:
        self.asked = 0

    async def seat_for_token(self, match_id: str, token_hash: bytes) -> int | None:
        self.asked += 1
        return 1


async def test_a_seats_token_is_looked_up_once_then_known_by_the_token_itself():
    """Given a seat's token, when it acts three times, then the store is asked once; another
    match's id with the same token is asked again (a token is valid for its match only)."""
    store = CountingSecrets()
    access = Access(store)  # type: ignore[arg-type]
    for _ in range(3):
        assert await access.seat("m-1", "seat-token") == 1
    assert store.asked == 1
    await access.seat("m-2", "seat-token")
    assert store.asked == 2


def test_the_app_is_wrapped_once():
    """Given the app, then its handler is the front, directly around litestar's own handler
    (no access-log, headers, limits or body layers of their own, no app middleware)."""
    app = create_app()
    assert isinstance(app.asgi_handler, Front)
    assert not app.middleware
