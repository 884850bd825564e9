"""The one-statement append on Postgres: the head it chains from is checked, never trusted."""

from __future__ import annotations

import uuid

import asyncpg
import pytest

from domain.core.chain import chain
from service.store import PostgresStore, VersionConflict
from tests.store.test_store_contract import event, new_match


async def test_a_wrong_cached_head_is_corrected_and_the_chain_stays_whole(
    pool: asyncpg.Pool,
) -> None:
    store = PostgresStore(pool)
    match_id = await new_match(store)
    store.heads.put(uuid.UUID(match_id), 1, bytes(32))

    await store.append(match_id, 1, [event(card=1), event(card=2)], status="playing", summary={})

    stored = await store.load(match_id)
    assert [e.hash for e in stored] == chain([e.data for e in stored])
    row = await store.get_match(match_id)
    assert row is not None and row.head_hash == stored[-1].hash


async def test_an_append_by_another_process_is_read_before_chaining(pool: asyncpg.Pool) -> None:
    mine, theirs = PostgresStore(pool), PostgresStore(pool)
    match_id = await new_match(mine)
    await theirs.append(match_id, 1, [event(card=1)], status="playing", summary={})

    with pytest.raises(VersionConflict) as clash:
        await mine.append(match_id, 1, [event(card=9)], status="playing", summary={})
    await mine.append(match_id, 2, [event(card=2)], status="playing", summary={})

    assert clash.value.current == 2
    stored = await mine.load(match_id)
    assert [e.hash for e in stored] == chain([e.data for e in stored])


async def test_each_committed_append_is_announced_after_its_commit(
    pool: asyncpg.Pool, database_url: str
) -> None:
    store, heard = PostgresStore(pool), []
    listener = await asyncpg.connect(database_url)
    try:
        await listener.add_listener("hearthlog", lambda *args: heard.append(args[3]))
        match_id = await new_match(store)
        await store.append(match_id, 1, [event(card=1)], status="playing", summary={})
        with pytest.raises(VersionConflict):
            await store.append(match_id, 1, [event(card=2)], status="playing", summary={})
        await store.announcer.drain()
        await listener.execute("SELECT 1")
    finally:
        await listener.close()

    assert heard == [f"{match_id}:1", f"{match_id}:2"]
