"""The store's part in live play, for every backend: due matches; and Postgres's notifications."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import msgspec
import pytest

from service.memory_store import MemoryStore
from service.store import CHANNEL, EventStore, NewEvent, PostgresStore, VersionConflict
from tests.store.test_store_contract import new_match


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


async def in_state(store: EventStore, status: str, **summary: Any) -> str:
    """A match appended to once, left with this status and summary."""
    match_id = await new_match(store)
    await store.append(match_id, 1, [played(1)], status=status, summary=summary)
    return match_id


async def test_a_bot_to_act_is_due_once_its_delay_has_passed(store: EventStore) -> None:
    """Given a match in play with a bot to act, then it is due with no delay, not with an hour."""
    match_id = await in_state(store, "playing", bot_to_act=True, turn_seconds=None)

    assert await store.due_matches(bot_delay=0) == [match_id]
    assert await store.due_matches(bot_delay=3600) == []


async def test_a_clock_is_due_once_its_turn_seconds_have_passed(store: EventStore) -> None:
    """Given matches in play with a run-out clock and a long clock, then only the first is due."""
    ran_out = await in_state(store, "playing", bot_to_act=False, turn_seconds=0)
    await in_state(store, "playing", bot_to_act=False, turn_seconds=3600)

    assert await store.due_matches(bot_delay=3600) == [ran_out]


async def test_only_matches_in_play_are_ever_due(store: EventStore) -> None:
    """Given a lobby, a finished match and one without bots or clock, then none is due."""
    await in_state(store, "lobby", bot_to_act=True, turn_seconds=0)
    await in_state(store, "finished", bot_to_act=True, turn_seconds=0)
    await in_state(store, "playing", names=["Ash"])

    assert await store.due_matches(bot_delay=0) == []


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
        await store.append(match_id, 1, [played(1), played(2)], status="playing", summary={})
        with pytest.raises(VersionConflict):
            await store.append(match_id, 1, [played(3)], status="playing", summary={})
        await store.append(match_id, 3, [played(4)], status="playing", summary={})
        got = [await asyncio.wait_for(heard.get(), 10) for _ in range(3)]
    finally:
        await listener.close()
    assert got == [f"{match_id}:1", f"{match_id}:3", f"{match_id}:4"]
    assert heard.empty()
