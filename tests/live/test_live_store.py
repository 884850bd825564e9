"""The store's part in live play, for every backend: due matches; and Postgres's notifications."""

from __future__ import annotations

import asyncio

import asyncpg
import msgspec
import pytest

from projections.summary import Summary
from service.store import (
    CHANNEL,
    Change,
    EventStore,
    NewEvent,
    OwedSince,
    PostgresStore,
    VersionConflict,
)
from service.store.memory import MemoryStore
from service.store.records import Status
from tests.store.contract import new_match

PLAYING = Change(status="playing", summary=Summary())


@pytest.fixture(params=["memory", "postgres"])
def store(request: pytest.FixtureRequest) -> EventStore:
    """Each backend in turn; the Postgres one gets a fresh migrated database."""
    if request.param == "memory":
        return MemoryStore()
    return PostgresStore(request.getfixturevalue("pool"))


def played(card: int) -> NewEvent:
    """A new event."""
    return NewEvent(
        type="card_played", data=msgspec.json.encode({"type": "card_played", "card": card})
    )


async def in_state(store: EventStore, status: Status, owed: OwedSince | None = None,
                   summary: Summary | None = None) -> str:
    """A match appended to once, left with this status and summary (none: the empty one), its
    seats owing since the append (``owed``: the versions they began at)."""
    match_id = await new_match(store)
    change = Change(status=status, summary=summary or Summary(), owed=owed)
    await store.append(match_id, 1, [played(1)], change)
    return match_id


async def test_a_bot_to_act_is_due_once_its_delay_has_passed(store: EventStore) -> None:
    """Given a match in play with a bot seat owing, then it is due with no delay, not with an
    hour."""
    match_id = await in_state(store, "playing", OwedSince(bots=2), Summary(turn_seconds=None))

    assert await store.due_matches(bot_delay=0) == [match_id]
    assert await store.due_matches(bot_delay=3600) == []


async def test_a_clock_is_due_once_its_turn_seconds_have_passed(store: EventStore) -> None:
    """Given matches in play with a run-out clock and a long clock, then only the first is due."""
    ran_out = await in_state(store, "playing", OwedSince(clock=2), Summary(turn_seconds=0))
    await in_state(store, "playing", OwedSince(clock=2), Summary(turn_seconds=3600))

    assert await store.due_matches(bot_delay=3600) == [ran_out]


async def test_only_matches_in_play_are_ever_due(store: EventStore) -> None:
    """Given a lobby, a finished match and one without bots or clock, then none is due."""
    await in_state(store, "lobby", OwedSince(clock=2, bots=2), Summary(turn_seconds=0))
    await in_state(store, "finished", OwedSince(clock=2, bots=2), Summary(turn_seconds=0))
    await in_state(store, "playing", summary=Summary(names=("Ash",)))
    await in_state(store, "playing", OwedSince(), Summary(turn_seconds=0))

    assert await store.due_matches(bot_delay=0) == []


async def test_a_seat_still_owing_keeps_the_time_it_began_to_owe_across_appends(
    store: EventStore,
) -> None:
    """Given a seat owing since version 2, when more events are appended while it still owes,
    then the match row keeps version 2's recorded time; once the longest-owing seat is one that
    began with the latest append, the row takes that append's time, and with nobody owing none."""
    match_id = await new_match(store)
    await store.append(match_id, 1, [played(1)],
                       Change(status="playing", summary=Summary(), owed=OwedSince(clock=2, bots=2)))
    await asyncio.sleep(0.01)
    later = await store.append(
        match_id, 2, [played(2), played(3)],
        Change(status="playing", summary=Summary(), owed=OwedSince(clock=2, bots=4)))
    [_, second, *_] = await store.load(match_id)
    row = await store.get_match(match_id)
    assert row is not None
    assert (row.owed_since, row.bot_owed_since) == (second.recorded_at, later[-1].recorded_at)
    assert second.recorded_at < later[-1].recorded_at
    await store.append(match_id, 4, [played(4)], PLAYING)
    row = await store.get_match(match_id)
    assert row is not None and (row.owed_since, row.bot_owed_since) == (None, None)


async def test_postgres_announces_committed_appends_only(
    pool: asyncpg.Pool, database_url: str
) -> None:
    """Given a listener, then creating and appending are announced as match:version, and an
    append refused for its version is not."""
    heard: asyncio.Queue[str] = asyncio.Queue()
    listener = await asyncpg.connect(database_url)
    await listener.add_listener(CHANNEL, lambda *args: heard.put_nowait(args[-1]))
    try:
        store = PostgresStore(pool)
        match_id = await new_match(store)
        await store.append(match_id, 1, [played(1), played(2)], PLAYING)
        with pytest.raises(VersionConflict):
            await store.append(match_id, 1, [played(3)], PLAYING)
        await store.append(match_id, 3, [played(4)], PLAYING)
        got = [await asyncio.wait_for(heard.get(), 10) for _ in range(3)]
    finally:
        await listener.close()
    assert got == [f"{match_id}:1", f"{match_id}:3", f"{match_id}:4"]
    assert heard.empty()
