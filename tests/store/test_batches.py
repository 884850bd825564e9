"""Appends sent together (service.store.append.Batches): what piles up while a batch is in flight
goes in one round trip and one transaction, and each append still gets its own answer."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest

from service.store.append import Batches
from tests.store import batched

AT = datetime(2026, 12, 6, tzinfo=UTC)


async def test_appends_at_once_go_in_one_batch(pool: asyncpg.Pool) -> None:
    await batched.appends_at_once_go_in_one_batch(pool)


async def test_a_refused_append_writes_nothing_and_the_rest_land(pool: asyncpg.Pool) -> None:
    await batched.a_refused_append_writes_nothing_and_the_rest_land(pool)


async def test_a_failing_append_fails_alone(pool: asyncpg.Pool) -> None:
    await batched.a_failing_append_fails_alone(pool)


class Lost:
    """A pool whose first batch loses its connection; it answers AT to everything after."""

    def __init__(self) -> None:
        self.lost, self.alone = False, 0

    async def fetchmany(self, query: str, args: list[Any]) -> list[Any]:
        await asyncio.sleep(0)  # a round trip: other tasks run meanwhile
        if not self.lost:
            self.lost = True
            raise ConnectionResetError("reset by peer")
        return [(AT,) for _ in args]

    async def fetchval(self, query: str, *args: Any) -> Any:
        await asyncio.sleep(0)
        self.alone += 1
        return AT


async def test_a_batch_whose_connection_is_lost_fails_every_caller_and_the_next_is_sent() -> None:
    """Given a batch whose connection is lost, whether it committed is unknown: every caller
    in it gets the error (none is sent again alone, which could write it twice over a commit),
    and the appends after it are sent. (The first of each burst goes at once, alone.)"""
    pool = Lost()
    batches = Batches(pool)  # type: ignore[arg-type]
    keys = [[uuid.uuid4()] for _ in range(3)]

    results = await asyncio.gather(*(batches.fetch("append", k) for k in keys),
                                   return_exceptions=True)
    after = await asyncio.gather(*(batches.fetch("append", k) for k in keys))

    assert [type(r) for r in results] == [datetime, ConnectionResetError, ConnectionResetError]
    assert (pool.alone, after) == (2, [AT] * 3)


class Held:
    """A pool whose batches wait until released, recording what each carried."""

    def __init__(self) -> None:
        self.release, self.arrived, self.sent = asyncio.Event(), asyncio.Event(), list[list[Any]]()

    async def fetchmany(self, query: str, args: list[Any]) -> list[Any]:
        self.sent.append(list(args))
        self.arrived.set()
        await asyncio.sleep(0)  # a round trip: other tasks run meanwhile
        await self.release.wait()
        return [(AT,) for _ in args]

    async def fetchval(self, query: str, *args: Any) -> Any:
        self.sent.append([list(args)])
        self.arrived.set()
        await asyncio.sleep(0)
        await self.release.wait()
        return AT


async def test_what_arrives_while_a_batch_is_in_flight_goes_in_the_next() -> None:
    """Given a lone append in flight, when three more arrive, then they wait and go together in
    one batch as soon as the first is answered; a caller that stops waiting does not stop the
    others' answers."""
    pool = Held()
    batches = Batches(pool)  # type: ignore[arg-type]
    first = asyncio.ensure_future(batches.fetch("append", [uuid.UUID(int=9)]))
    await pool.arrived.wait()
    later = [asyncio.ensure_future(batches.fetch("append", [uuid.UUID(int=n)]))
             for n in (3, 1, 2)]
    await asyncio.sleep(0)
    later[0].cancel()
    pool.release.set()

    assert await first == AT
    assert await asyncio.gather(*later[1:]) == [AT, AT]
    assert later[0].cancelled()
    assert pool.sent == [[[uuid.UUID(int=9)]],  # alone, then the rest by match
                         [[uuid.UUID(int=1)], [uuid.UUID(int=2)], [uuid.UUID(int=3)]]]


@pytest.mark.parametrize("shapes", [1, 2])
async def test_each_shape_of_statement_is_its_own_batch(shapes: int) -> None:
    """Given appends of two shapes behind one in flight, then each shape's statements travel
    together."""
    pool = Held()
    pool.release.set()
    batches = Batches(pool)  # type: ignore[arg-type]
    await asyncio.gather(*(batches.fetch(f"shape {n % shapes}", [uuid.UUID(int=n)])
                           for n in range(5)))
    assert [len(sent) for sent in pool.sent[1:]] == ([4] if shapes == 1 else [2, 2])
