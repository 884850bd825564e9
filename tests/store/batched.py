"""Appends sent together (service.store.append.Batches): the cases, for any Postgres a store runs
on (tests/store/test_batches.py on one server, tests/test_pooler.py through PgBouncer,
tests/distributed/test_cluster_batches.py on Citus)."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from domain.core.chain import chain
from projections.summary import Summary
from service.store import Change, PostgresStore, VersionConflict
from service.store.records import CommandRecord, DuplicateCommand
from tests.store.contract import event, new_match


class Counted:
    """A pool that counts what the appends send through it: each batch's size, and the
    statements sent alone; everything else goes straight to the pool."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool, self.batches, self.alone = pool, list[int](), 0

    async def fetchmany(self, query: str, args: list[Any]) -> list[Any]:
        self.batches.append(len(args))
        return await self.pool.fetchmany(query, args)

    async def fetchval(self, query: str, *args: Any) -> Any:
        self.alone += 1
        return await self.pool.fetchval(query, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pool, name)


def counted(store: PostgresStore) -> Counted:
    """Count what the store's appends send from now on."""
    spy = Counted(store.pool)
    store.batches.pool = spy  # type: ignore[assignment]
    return spy


def played(command_id: str) -> Change:
    """A move in play with its command record, as a command's append writes."""
    return Change(status="playing", summary=Summary(), command=CommandRecord(
        command_id=command_id, seat=0, response=b'{"ok":true}', status_code=200, version=2))


async def whole(store: PostgresStore, match_id: str) -> list[int]:
    """The match's versions, its hash chain checked unbroken first."""
    stored = await store.load(match_id)
    assert [e.hash for e in stored] == chain([e.data for e in stored])
    return [e.version for e in stored]


async def appends_at_once_go_in_one_batch(pool: asyncpg.Pool) -> None:
    """Given eight matches, when each gets a move at the same moment, then the first goes at
    once and one round trip carries the other seven statements, and every match holds its
    move on an unbroken chain."""
    store = PostgresStore(pool)
    matches = [await new_match(store) for _ in range(8)]
    sent = counted(store)

    await asyncio.gather(*(store.append(m, 1, [event(card=n)], played(f"c{n}"))
                           for n, m in enumerate(matches)))

    assert (sent.batches, sent.alone) == ([7], 1)
    assert [await whole(store, m) for m in matches] == [[1, 2]] * 8


async def a_refused_append_writes_nothing_and_the_rest_land(pool: asyncpg.Pool) -> None:
    """Given two moves on one match at the same version in a batch beside two other matches'
    moves (a fifth going first, at once), then the first lands, the second is refused at the
    version the first made, and the other matches' moves land: a refusal is that statement's
    alone."""
    store = PostgresStore(pool)
    ahead, first, second, third = [await new_match(store) for _ in range(4)]
    sent = counted(store)

    results = await asyncio.gather(
        store.append(ahead, 1, [event(card=0)], played("a")),
        store.append(first, 1, [event(card=1)], played("a")),
        store.append(first, 1, [event(card=9)], played("b")),
        store.append(second, 1, [event(card=2)], played("a")),
        store.append(third, 1, [event(card=3)], played("a")), return_exceptions=True)

    assert (sent.batches, sent.alone) == ([4], 1)
    assert [type(r) for r in results] == [list, list, VersionConflict, list, list]
    assert isinstance(results[2], VersionConflict) and results[2].current == 2
    assert [await whole(store, m) for m in (ahead, first, second, third)] == [[1, 2]] * 4
    assert (await store.load(first))[1].data == event(card=1).data


async def a_failing_append_fails_alone(pool: asyncpg.Pool) -> None:
    """Given three matches in play, one of which recorded command c1, when a batch carries c1
    again for it beside another match's c1 (a third match's going first, at once), then the
    batch's transaction is rolled back and its two statements sent again one by one: the
    repeated command is refused as a duplicate and writes nothing, and both other moves
    land."""
    store = PostgresStore(pool)
    ahead, repeated, other = [await new_match(store) for _ in range(3)]
    for match_id, command_id in ((ahead, "c0"), (repeated, "c1"), (other, "c0")):
        await store.append(match_id, 1, [event(card=1)], played(command_id))
    sent = counted(store)

    results = await asyncio.gather(
        *(store.append(m, 2, [event(card=2)], played("c1")) for m in (ahead, repeated, other)),
        return_exceptions=True)

    assert (sent.batches, sent.alone) == ([2], 3)
    assert [type(r) for r in results] == [list, DuplicateCommand, list]
    assert [await whole(store, m) for m in (ahead, repeated, other)] == [[1, 2, 3], [1, 2],
                                                                         [1, 2, 3]]
