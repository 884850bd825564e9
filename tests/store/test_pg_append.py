"""The one-statement append on Postgres: the head it chains from is checked, never trusted."""

from __future__ import annotations

import uuid
from typing import Any

import asyncpg
import pytest

from domain.core.chain import chain
from projections.summary import Summary
from service.store import Change, PostgresStore, UnknownMatch, VersionConflict
from service.store import append as pg_append
from service.store.records import CommandRecord, HistoryChanged, Status
from tests.store.contract import event, new_match

PLAYING = Change(status="playing", summary=Summary())
AS_A = Change(status="playing", summary=Summary(names=("a",)))  # in play, one seat named a
AS_B = Change(status="playing", summary=Summary(names=("b",)))


async def test_a_wrong_cached_head_writes_nothing_and_the_chain_stays_whole(
    pool: asyncpg.Pool,
) -> None:
    """A head cached for the version expected that is not the database's (another history at
    that version, after a failover) refuses the append, which was decided on that history; the
    head is then known, and the caller's next try is chained from it."""
    store = PostgresStore(pool)
    match_id = await new_match(store)
    store.heads.put(uuid.UUID(match_id), 1, bytes(32))

    with pytest.raises(HistoryChanged):
        await store.append(match_id, 1, [event(card=1), event(card=2)], PLAYING)
    assert len(await store.load(match_id)) == 1
    await store.append(match_id, 1, [event(card=1), event(card=2)], PLAYING)

    stored = await store.load(match_id)
    assert [e.hash for e in stored] == chain([e.data for e in stored])
    row = await store.get_match(match_id)
    assert row is not None and row.head_hash == stored[-1].hash


async def test_an_append_by_another_process_is_read_before_chaining(pool: asyncpg.Pool) -> None:
    mine, theirs = PostgresStore(pool), PostgresStore(pool)
    match_id = await new_match(mine)
    await theirs.append(match_id, 1, [event(card=1)], PLAYING)

    with pytest.raises(VersionConflict) as clash:
        await mine.append(match_id, 1, [event(card=9)], PLAYING)
    await mine.append(match_id, 2, [event(card=2)], PLAYING)

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
        await store.append(match_id, 1, [event(card=1)], PLAYING)
        with pytest.raises(VersionConflict):
            await store.append(match_id, 1, [event(card=2)], PLAYING)
        await store.announcer.drain()
        await listener.execute("SELECT 1")
    finally:
        await listener.close()

    assert heard == [f"{match_id}:1", f"{match_id}:2"]


async def test_an_unchanged_match_row_is_not_written_again(
    pool: asyncpg.Pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, sent = PostgresStore(pool), []
    append_once = pg_append.append_once

    async def spy(*args: Any, **write: Any) -> Any:
        sent.append(args[6])  # the row it writes (None: left as it was)
        return await append_once(*args, **write)

    monkeypatch.setattr(pg_append, "append_once", spy)
    match_id = await new_match(store)
    names: list[tuple[str, ...]] = [(), ("a",), ("a",), ("a",), ("a",)]
    steps: list[tuple[Status, int | None]] = [
        ("lobby", None), ("playing", None), ("playing", None), ("playing", 2), ("finished", 2)]
    for version, (status, seats) in enumerate(steps, start=1):
        change = Change(status=status, summary=Summary(names=names[version - 1]),
                        seats_taken=seats)
        await store.append(match_id, version, [event(card=version)], change)

    assert sent == [None, ("playing", b'{"names":["a"]}', None, False), None,
                    ("playing", b'{"names":["a"]}', 2, False),
                    ("finished", b'{"names":["a"]}', 2, True)]
    row = await store.get_match(match_id)
    assert row is not None and (row.status, row.summary, row.seats_taken, row.version) == (
        "finished", Summary(names=("a",)), 2, 6)
    assert row.finished_at is not None


async def test_the_head_moves_on_every_append_and_the_row_keeps_its_read_model(
    pool: asyncpg.Pool,
) -> None:
    store = PostgresStore(pool)
    match_id = await new_match(store)
    before = await store.get_match(match_id)
    await store.append(match_id, 1, [event(card=1)], PLAYING)
    await store.append(match_id, 2, [event(card=2)], PLAYING)

    after = await store.get_match(match_id)
    stored = await store.load(match_id)
    assert before is not None and after is not None
    assert (after.version, after.head_hash) == (3, stored[-1].hash)
    assert after.updated_at == stored[-1].recorded_at > before.updated_at
    assert (after.status, after.summary) == ("playing", Summary())


async def test_a_summary_another_process_changed_is_written_again(pool: asyncpg.Pool) -> None:
    mine, theirs = PostgresStore(pool), PostgresStore(pool)
    match_id = await new_match(mine)
    await mine.append(match_id, 1, [event(card=1)], AS_A)
    await theirs.append(match_id, 2, [event(card=2)], AS_B)

    with pytest.raises(VersionConflict):
        await mine.append(match_id, 2, [event(card=9)], AS_A)
    await mine.append(match_id, 3, [event(card=3)], AS_A)

    row = await mine.get_match(match_id)
    assert row is not None and (row.version, row.summary) == (4, Summary(names=("a",)))


async def test_a_wrong_cached_head_never_keeps_a_stale_summary(pool: asyncpg.Pool) -> None:
    store = PostgresStore(pool)
    match_id = await new_match(store)
    await store.append(match_id, 1, [event(card=1)], AS_A)
    await pool.execute("UPDATE matches SET summary = '{\"names\": [\"z\"]}' WHERE match_id = $1",
                       uuid.UUID(match_id))
    store.heads.put(uuid.UUID(match_id), 2, bytes(32), pg_append.row_of(AS_A))

    with pytest.raises(HistoryChanged):
        await store.append(match_id, 2, [event(card=2)], AS_A)
    await store.append(match_id, 2, [event(card=2)], AS_A)

    row = await store.get_match(match_id)
    assert row is not None and row.summary == Summary(names=("a",))


async def test_an_append_to_an_unknown_match_writes_no_event_and_no_command_record(
    pool: asyncpg.Pool,
) -> None:
    """Events and command records name their match without a foreign key (migration 0014): the
    append writes them only beside the match's head row. Even with a head this process believes
    it knows (a cache that is wrong), an append to a match that does not exist writes nothing."""
    store = PostgresStore(pool)
    unknown = uuid.uuid4()
    store.heads.put(unknown, 1, bytes(32))
    record = CommandRecord(command_id="c1", seat=0, response=b"{}", status_code=200, version=2)

    with pytest.raises(UnknownMatch):
        await store.append(str(unknown), 1, [event(card=1), event(card=2)],
                           Change(status="playing", summary=Summary(), command=record))

    async with pool.acquire() as conn:
        written = await conn.fetchval(
            "SELECT (SELECT count(*) FROM events WHERE match_id = $1)"
            " + (SELECT count(*) FROM commands WHERE match_id = $1)", unknown)
        keys = await conn.fetch(
            "SELECT conrelid::regclass::text AS source FROM pg_constraint"
            " WHERE contype = 'f' AND confrelid = 'matches'::regclass")
    assert written == 0
    assert {row["source"] for row in keys} == {"heads", "seat_tokens", "snapshots"}
