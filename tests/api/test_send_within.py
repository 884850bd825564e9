"""Each part of an answer sent within HEARTHLOG_SEND_SECONDS (service.http.front.send_within,
issue 33): a part the server takes at once arms no timer; only a send still waiting after its
first step is timed, and it keeps what a timed ``await`` means: cut when its client reads none
of it in time, an outside cancellation left a cancellation, the send's own error its own.

The served cut is tests/hostile/'s; here the sends are driven directly, with a send shaped as
granian's (an awaitable whose iterator has neither send nor throw, and yields a future).
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest
from litestar import Litestar, get
from litestar.response import Stream

from service.http.front import SlowReaders, Stalled, send_within

PART = {"type": "http.response.body", "body": b"x", "more_body": True}


class ServerWait:
    """A model of granian's PyFutureAwaitable (what its send returns when the connection's
    buffer is full): its own iterator and its own future, yielding itself until completed; it
    keeps the waiting task's callback after a cancel, while anything holds it (the server lets
    it go once it is done or cancelled)."""

    def __init__(self, server: ServerSend) -> None:
        self.loop, self.server = asyncio.get_running_loop(), server
        self.state, self.outcome = "pending", None
        self.ack: tuple[Any, Any] | None = None
        self._asyncio_future_blocking = True

    def __await__(self) -> ServerWait:
        return self

    def __iter__(self) -> ServerWait:
        return self

    def __next__(self) -> ServerWait:
        if self.state == "done":
            raise StopIteration(self.result())
        return self

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self.loop

    def add_done_callback(self, callback: Any, context: Any = None) -> None:
        if self.state == "pending":
            self.ack = (callback, context)
        else:
            self.loop.call_soon(callback, self, context=context)

    def remove_done_callback(self, callback: Any) -> int:
        self.ack = None
        return 1

    def _finish(self, state: str, outcome: Any = None) -> bool:
        if self.state != "pending":
            return False
        self.state, self.outcome = state, outcome
        self.server.held.remove(self)
        self.server.ended.append(state)
        if self.ack is not None:  # called, and kept
            self.loop.call_soon(self.ack[0], self, context=self.ack[1])
        return True

    def cancel(self, msg: Any = None) -> bool:
        return self._finish("cancelled")

    def set(self, outcome: Any) -> None:
        """The client took the part (None), or the connection failed (an exception)."""
        self._finish("done", outcome)

    def done(self) -> bool:
        return self.state != "pending"

    def cancelled(self) -> bool:
        return self.state == "cancelled"

    def result(self) -> Any:
        if self.state == "cancelled":
            raise asyncio.CancelledError
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        if self.state == "pending":
            raise asyncio.InvalidStateError
        return self.outcome

    def exception(self) -> BaseException | None:
        return self.outcome if isinstance(self.outcome, BaseException) else None


class ServerSend:
    """A server's send (granian's shape): the first ``at_once`` parts are taken at once, every
    later one waits until the test takes it, or for ever; the server holds each wait until it
    ends (``ended`` says how)."""

    def __init__(self, at_once: int = 0) -> None:
        self.at_once = at_once
        self.held: list[ServerWait] = []
        self.ended: list[str] = []

    def __call__(self, message: dict) -> Any:
        if self.at_once > 0:
            self.at_once -= 1
            return Taken()
        self.held.append(ServerWait(self))
        return self.held[-1]


class Taken:
    """What granian's send returns for a part it takes at once (its PyEmptyAwaitable)."""

    def __await__(self) -> Taken:
        return self

    def __next__(self) -> None:
        raise StopIteration


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
    send.held[0].set(None)
    assert await sending is None
    assert asyncio.current_task().cancelling() == 0  # type: ignore[union-attr]


async def test_a_server_send_never_taken_is_cut_and_its_task_left_uncancelled():
    """Given a server send (granian's shape) never taken, when the time passes, then Stalled,
    and the task may go on awaiting (its cut is not left as a pending cancellation)."""
    send = ServerSend()
    with pytest.raises(Stalled):
        await send_within(send, PART, 0.01)
    assert send.ended == ["cancelled"] and not send.held
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
    send.held[0].set(ConnectionResetError("gone"))
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


class StalledClient:
    """A client (a coroutine send) that takes the answer's head and then reads nothing."""

    def __init__(self) -> None:
        self.stalled = asyncio.Event()

    async def __call__(self, message: dict) -> None:
        if message["type"] == "http.response.body":
            self.stalled.set()
            await asyncio.Event().wait()


@pytest.mark.parametrize("shape", ["coroutine", "server"])
async def test_a_cut_export_gives_its_slot_back_at_once(shape):
    """Given a litestar route streaming from a generator that holds a slot (as an export holds
    its slot and pooled connection), sent to a client that stops reading (a coroutine send that
    waits for ever, or a granian-shaped send that takes two parts and then waits for ever, the
    server holding the wait and the task's callback), when the answer is cut, then the slot is
    free at once, not at the next full garbage collection: no frame left behind keeps the
    server's wait, which would keep the cut task and its traceback (issue #34's unread exports,
    which tests/hostile/ serves)."""
    slot = asyncio.Semaphore(1)

    async def parts():
        async with slot:
            while True:
                yield b"x" * 65536

    @get("/export", sync_to_thread=False)
    def export() -> Stream:
        return Stream(parts())

    never = asyncio.Event()

    async def receive() -> dict:
        await never.wait()
        return {"type": "http.disconnect"}

    send = ServerSend(at_once=2) if shape == "server" else StalledClient()
    gc.disable()  # what a full collection would free is not to count
    try:
        scope = {"type": "http", "method": "GET", "path": "/export", "raw_path": b"/export",
                 "query_string": b"", "headers": [], "scheme": "http", "http_version": "1.1",
                 "root_path": "", "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
        await SlowReaders(Litestar([export]), 0.05)(scope, receive, send)
        for _ in range(5):  # the generator's finaliser is scheduled on the loop
            await asyncio.sleep(0)
        cut = send.ended == ["cancelled"] if shape == "server" else send.stalled.is_set()
        assert cut and not slot.locked()
    finally:
        gc.enable()


async def test_a_request_closed_while_its_send_waits_closes_the_send_too():
    """Given a send waiting for its client, when the request's coroutine is closed (its task
    dropped at shutdown), then the send is closed with it, as a plain ``await`` would close it."""
    closed = []

    async def client(message: dict) -> None:
        try:
            await asyncio.Event().wait()
        finally:
            closed.append(message["type"])

    sending = send_within(client, PART, 60)
    sending.send(None)  # the send's first step: it waits
    sending.close()
    assert closed == ["http.response.body"]
