"""Attack: clients that ask for a streamed answer and never read it (issue #34, defect 2).

34 clients asking for `GET /exports/matches` and reading nothing froze every database route:
each export held one of the 32 pooled connections for as long as its client held on. Now an
answer whose client reads nothing for HEARTHLOG_SEND_SECONDS is cut (service.http.front), and
bulk exports read within a few slots of their own (HEARTHLOG_EXPORTS, service.store.queries),
so they can never hold the connections the command path needs. The load itself (34+ unread
exports against a real server) is tests/reliability/test_overload.py's; that a cut export
frees its slot at once, whatever the server's send, is tests/api/test_send_within.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import pytest

from service.http.front import SlowReaders
from service.store import queries
from service.store.records import ExportFilter


async def test_an_answer_its_client_stops_reading_is_cut_and_what_it_held_is_freed(caplog):
    """Given an app streaming an answer part by part, whose client reads the first part and then
    nothing (its send never completes), when the send time runs out, then the request ends
    without the answer's end, the app's resources are freed, and one line says why."""
    freed, sent = asyncio.Event(), []
    never = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        try:
            await send({"type": "http.response.start", "status": 200, "headers": []})
            for _ in range(1000):
                await send({"type": "http.response.body", "body": b"x" * 65536, "more_body": True})
        finally:
            freed.set()

    async def stalled_client(message: dict) -> None:
        sent.append(message["type"])
        if len(sent) > 2:
            await never.wait()

    scope = {"type": "http", "method": "GET", "path": "/exports/matches"}
    with caplog.at_level(logging.WARNING, "hearthlog.front"):
        await SlowReaders(app, 0.05)(scope, None, stalled_client)
    assert freed.is_set() and sent == ["http.response.start", *["http.response.body"] * 2]
    assert "read nothing for 0.05 s" in caplog.text and "HEARTHLOG_SEND_SECONDS" in caplog.text


async def test_an_error_that_is_not_a_stalled_client_is_left_to_the_app():
    """Given an app that fails on its own, then SlowReaders lets the failure through."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise ValueError("its own")

    async def client(message: dict) -> None:
        pass

    with pytest.raises(ValueError, match="its own"):
        await SlowReaders(app, 1.0)({"type": "http", "method": "GET", "path": "/"}, None, client)


class HeldPool:
    """A pool whose export queries wait until released; it counts the connections held."""

    def __init__(self, slots: int) -> None:
        self.held = self.most = 0
        self.slots, self.full, self.release = slots, asyncio.Event(), asyncio.Event()

    @contextlib.asynccontextmanager
    async def acquire(self):
        self.held += 1
        self.most = max(self.most, self.held)
        if self.held == self.slots:
            self.full.set()
        try:
            yield self
        finally:
            self.held -= 1

    def transaction(self, **_: Any) -> contextlib.AbstractAsyncContextManager:
        return contextlib.nullcontext()

    async def fetch(self, *_: Any) -> list:
        await self.release.wait()
        return []


async def test_bulk_exports_hold_at_most_their_slots_of_the_pool(monkeypatch):
    """Given HEARTHLOG_EXPORTS=3, when 34 exports are asked for at once and none is read, then
    3 hold a pooled connection and the other 31 wait without one; once released, all end."""
    monkeypatch.setenv(queries.EXPORTS_VARIABLE, "3")
    pool = HeldPool(3)
    filters = ExportFilter(tournament=None, game=None, finished_after=None, finished_before=None)

    async def export() -> list:
        return [m async for m in queries.finished_matches(pool, filters, events=True)]  # type: ignore[arg-type]

    exports = [asyncio.create_task(export()) for _ in range(34)]
    await pool.full.wait()
    for _ in range(34):  # every other export gets its turn to try for a slot
        await asyncio.sleep(0)
    assert pool.held == pool.most == 3 and queries.export_slots().locked()
    pool.release.set()
    assert await asyncio.gather(*exports) == [[]] * 34 and pool.held == 0
