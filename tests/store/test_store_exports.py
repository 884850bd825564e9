"""The store's export methods, one contract run against every backend: finished matches only,
oldest finish first, filtered, with their server seed and byte-exact events, a page at a time."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta
from typing import Any

import msgspec
import pytest

from projections.summary import Summary
from service.store import Change, EventStore, ExportFilter, NewEvent, NewMatch, PostgresStore
from service.store.memory import MemoryStore


@pytest.fixture(params=["memory", "postgres"])
def store(request: pytest.FixtureRequest) -> EventStore:
    """Each backend in turn; the Postgres one gets a fresh migrated database."""
    if request.param == "memory":
        return MemoryStore()
    return PostgresStore(request.getfixturevalue("pool"))


def event(type: str, **data: Any) -> NewEvent:
    """A new event whose data is the canonical JSON of its tag and fields."""
    return NewEvent(
        type=type,
        data=msgspec.json.encode({"type": type, **data}),
        metadata={"seat": None, "command_id": None},
    )


async def a_match(
    store: EventStore, finished: bool = True, game: str = "embers", tournament: str | None = None
) -> str:
    """A match with three events, finished unless asked otherwise; returns its id."""
    match_id = str(uuid.uuid4())
    await store.create_match(NewMatch(
        match_id=match_id,
        game=game,
        rules_version="1",
        seats=2,
        practice=False,
        tournament=tournament,
        label=None,
        seed_commitment="c0ffee",
        server_seed=b"seed-" + match_id.encode(),
        host_token_hash=None,
        first=event("match_created", note="ü ✓"),
        summary=Summary(),
    ))
    await store.append(
        match_id,
        1,
        [event("card_played", card=1), event("night_ended", winners=[0])],
        Change(status="finished" if finished else "playing", summary=Summary(names=("A", "B"))),
    )
    return match_id


async def exported(store: EventStore, **filters: Any) -> list[Any]:
    """Every finished match the store streams for these filters."""
    return [m async for m in store.finished_matches(ExportFilter(**filters))]


async def test_only_finished_matches_stream_oldest_first_with_seed_and_exact_events(
    store: EventStore,
) -> None:
    """Given two finished matches and one in play, then the finished two stream in finish order,
    each with its server seed and its events exactly as load gives them."""
    first, _, second = await a_match(store), await a_match(store, False), await a_match(store)

    streamed = await exported(store)

    assert [m.row.match_id for m in streamed] == [first, second]
    for match in streamed:
        assert match.server_seed == b"seed-" + match.row.match_id.encode()
        assert match.events == await store.load(match.row.match_id)
        assert match.row == await store.get_match(match.row.match_id)


async def test_filters_pick_by_tournament_game_and_a_half_open_finish_window(
    store: EventStore,
) -> None:
    """Given matches in two tournaments and games, then each filter keeps only its matches, and
    finished_after is inclusive while finished_before is exclusive."""
    spring = await a_match(store, tournament="spring")
    other_game = await a_match(store, game="other", tournament="spring")
    autumn = await a_match(store, tournament="autumn")
    times = {m: (await store.get_match(m)).finished_at for m in (spring, other_game, autumn)}

    def ids(matches: list[Any]) -> list[str]:
        return [m.row.match_id for m in matches]

    assert ids(await exported(store, tournament="spring")) == [spring, other_game]
    assert ids(await exported(store, game="other")) == [other_game]
    assert ids(await exported(store, finished_after=times[other_game])) == [other_game, autumn]
    assert ids(await exported(store, finished_before=times[other_game])) == [spring]
    later = times[autumn] + timedelta(seconds=1)
    assert await exported(store, finished_after=later) == []


async def test_rows_alone_stream_without_events_and_the_count_agrees(store: EventStore) -> None:
    """Given events=False, then rows come without events; count_finished counts the same."""
    for tournament in ("spring", "spring", None):
        await a_match(store, tournament=tournament)
    await a_match(store, finished=False, tournament="spring")

    rows = [m async for m in store.finished_matches(ExportFilter(), events=False)]

    assert len(rows) == 3 and all(m.events == [] for m in rows)
    assert await store.count_finished(ExportFilter()) == 3
    assert await store.count_finished(ExportFilter(tournament="spring")) == 2


async def test_streams_stopped_early_give_their_connections_back(store: EventStore) -> None:
    """Given more early-stopped streams than the pool has connections, then none is kept."""
    for _ in range(3):
        await a_match(store)

    for _ in range(12):
        stream = store.finished_matches(ExportFilter())
        async for _ in stream:
            break
        await stream.aclose()

    assert len(await asyncio.wait_for(exported(store), timeout=10)) == 3
