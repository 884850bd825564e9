"""Each part of an answer sent within HEARTHLOG_SEND_SECONDS (service.http.front.send_within,
issue 33): a part the server takes at once arms no timer; only a send still waiting after its
first step is timed, and it keeps what a timed ``await`` means: cut when its client reads none
of it in time, an outside cancellation left a cancellation, the send's own error its own.

The served cut is tests/hostile/'s; here the sends are driven directly, with a send shaped as
granian's (an awaitable whose iterator has neither send nor throw, and yields a future).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from service.http.front import Stalled, send_within

PART = {"type": "http.response.body", "body": b"x", "more_body": True}


class ServerWait:
    """What granian's send returns when its buffer is full: an iterator that yields a future
    once, then gives its result (or raises what the future holds)."""

    def __init__(self, future: asyncio.Future[Any]) -> None:
        self.future, self.yielded = future, False

    def __await__(self) -> ServerWait:
        return self

    def __iter__(self) -> ServerWait:
        return self

    def __next__(self) -> Any:
        if not self.yielded:
            self.yielded = True
            self.future._asyncio_future_blocking = True  # as Future.__await__ sets it
            return self.future
        raise StopIteration(self.future.result())


class ServerSend:
    """A server's send whose every part waits until the test takes it (or never)."""

    def __init__(self) -> None:
        self.waiting: list[asyncio.Future[Any]] = []

    def __call__(self, message: dict) -> ServerWait:
        self.waiting.append(asyncio.get_running_loop().create_future())
        return ServerWait(self.waiting[-1])


async def test_a_part_taken_at_once_arms_no_timer(monkeypatch):
    """Given a client that takes every part at once, when 50 parts are sent, then no timeout
    is made (the old way armed and cancelled one per part)."""
    made = []
    timeout = asyncio.timeout
    monkeypatch.setattr(asyncio, "timeout", lambda s: made.append(s) or timeout(s))
    sent = []

    async def client(message: dict) -> None:
        sent.append(message)

    for _ in range(50):
        await send_within(client, PART, 0.05)
    assert len(sent) == 50 and made == []


async def test_a_server_send_that_waits_then_is_taken_in_time_is_not_cut():
    """Given a server send that waits, when the client takes it before the time, then the send
    ends normally and the task carries no cancellation."""
    send = ServerSend()
    sending = asyncio.ensure_future(send_within(send, PART, 60))
    await asyncio.sleep(0)
    send.waiting[0].set_result(None)
    assert await sending is None
    assert asyncio.current_task().cancelling() == 0  # type: ignore[union-attr]


async def test_a_server_send_never_taken_is_cut_and_its_task_left_uncancelled():
    """Given a server send (granian's shape) never taken, when the time passes, then Stalled,
    and the task may go on awaiting (its cut is not left as a pending cancellation)."""
    send = ServerSend()
    with pytest.raises(Stalled):
        await send_within(send, PART, 0.01)
    assert send.waiting[0].cancelled()
    assert asyncio.current_task().cancelling() == 0  # type: ignore[union-attr]
    await asyncio.sleep(0)


@pytest.mark.parametrize("shape", ["server", "coroutine"])
async def test_a_request_cancelled_while_its_send_waits_stays_a_cancellation(shape):
    """Given a send waiting for its client, when the request's task is cancelled from outside
    (its client gone) well within the time, then a CancelledError, not Stalled, and the task's
    cancellation is still counted."""
    never = asyncio.Event()

    async def client(message: dict) -> None:
        await never.wait()

    seen: list[object] = []

    async def request() -> None:
        try:
            await send_within(ServerSend() if shape == "server" else client, PART, 60)
        except BaseException as error:
            seen.append((type(error), asyncio.current_task().cancelling()))  # type: ignore[union-attr]
            raise

    sending = asyncio.ensure_future(request())
    await asyncio.sleep(0)
    sending.cancel()
    with pytest.raises(asyncio.CancelledError):
        await sending
    assert seen == [(asyncio.CancelledError, 1)]


async def test_an_error_a_send_raises_after_waiting_is_its_own():
    """Given a send that waits, then fails (the connection reset), then that error comes out
    unchanged, not as Stalled or a cancellation."""
    send = ServerSend()
    sending = asyncio.ensure_future(send_within(send, PART, 60))
    await asyncio.sleep(0)
    send.waiting[0].set_exception(ConnectionResetError("gone"))
    with pytest.raises(ConnectionResetError, match="gone"):
        await sending


async def test_a_coroutine_send_that_waits_several_times_is_timed_as_one_part():
    """Given a client's send that waits twice before it takes the part (as uvicorn's send
    drains), when it is taken in time, then the send ends normally with every step resumed."""
    steps = []

    async def client(message: dict) -> None:
        for step in range(3):
            steps.append(step)
            await asyncio.sleep(0)

    await send_within(client, PART, 60)
    assert steps == [0, 1, 2]
