"""Snapshots: a cache of the fold of a match's events, used only while it provably sums them up.

Every state of random matches of every registered rulebook surviving the encoding is one of the
conformance checks (tests/games/conformance.py: check_snapshots); here, the store's side, over
random matches of each game the domain package holds.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from domain.core import match
from domain.core.decider import Rulebook
from domain.games import GAMES
from domain.registry import lookup
from projections.summary import Summary
from service.loading import StateCache, decode_events
from service.store import (
    Change,
    EventStore,
    NewEvent,
    NewMatch,
    PostgresStore,
    StoredEvent,
    snapshots,
)
from service.store.memory import MemoryStore
from tests.games.conformance import in_domain
from tests.replay.random_matches import play

WICK = GAMES["wick-and-ember"]
EVERY = 20
DOMAIN_GAMES = sorted(
    (book for book in GAMES.values() if in_domain(book)),
    key=lambda book: book.id,
)


@pytest.fixture(params=["memory", "postgres"])
def store(request: pytest.FixtureRequest) -> EventStore:
    """Each backend in turn; the Postgres one gets a fresh migrated database."""
    if request.param == "memory":
        return MemoryStore()
    return PostgresStore(request.getfixturevalue("pool"))


@pytest.fixture(autouse=True)
def small_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot every 20 events, so short random matches have several."""
    monkeypatch.setattr(snapshots, "EVERY", EVERY)


class Counting:
    """A store that counts the events it hands out."""

    def __init__(self, store: EventStore) -> None:
        self.store, self.events_read = store, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def load(self, match_id: str, after: int = 0, upto: int | None = None) -> list[Any]:
        events = await self.store.load(match_id, after, upto)
        self.events_read += len(events)
        return events


async def stored_match(
    store: EventStore, index: int = 19, game: Rulebook = WICK
) -> tuple[str, list[StoredEvent]]:
    """A random finished match of a game written through the store, one event per append."""
    played = play(index, game=game)
    first, *rest = [NewEvent(type=e.type, data=e.data, metadata=e.metadata) for e in played.events]
    await store.create_match(NewMatch(
        match_id=played.match_id, game=game.id, rules_version=game.rules_version, seats=6,
        practice=False, tournament=None, label=None, seed_commitment="c",
        server_seed=played.server_seed, host_token_hash=None, first=first, summary=Summary()))
    for version, event in enumerate(rest, start=1):
        await store.append(played.match_id, version, [event],
                           Change(status="playing", summary=Summary()))
    return played.match_id, played.events


def folded(events: list[StoredEvent]) -> match.MatchState:
    """The plain fold of every event under the match's rules: the truth a snapshot must agree
    with."""
    opened = msgspec.json.decode(events[0].data)
    game = lookup(opened["game"], opened["rules_version"])
    return match.fold(game, decode_events(game, events))


async def settle(cache: StateCache) -> None:
    """Let the cache's background snapshot writes finish."""
    await asyncio.gather(*cache._writes)


@pytest.mark.parametrize("game", DOMAIN_GAMES, ids=lambda book: book.id)
def test_every_state_of_a_match_survives_the_snapshot_encoding(game: Rulebook) -> None:
    events = play(39, game=game).events
    for version in range(1, len(events) + 1):
        state = folded(events[:version])

        assert snapshots.decode(snapshots.encode(state) or b"") == state


@pytest.mark.parametrize("game", DOMAIN_GAMES, ids=lambda book: book.id)
async def test_a_cold_load_starts_from_the_snapshot_and_equals_the_full_fold(
    store: EventStore, game: Rulebook
) -> None:
    match_id, events = await stored_match(store, game=game)
    warm = StateCache(store)
    await warm.load(match_id)
    await settle(warm)
    counting = Counting(store)

    loaded = await StateCache(counting).load(match_id)

    assert loaded.state == folded(events) and loaded.version == len(events)
    assert counting.events_read <= EVERY + 1


async def test_a_snapshot_is_written_as_play_passes_each_snapshot_point(
    store: EventStore,
) -> None:
    match_id, events = await stored_match(store)
    cache = StateCache(store)
    for version in range(1, 3 * EVERY + 5):
        cache.remember(match_id, version, folded(events[:version]))
    await settle(cache)

    snapshot = await store.latest_snapshot(match_id)

    assert snapshot is not None and snapshot.version == 3 * EVERY
    assert snapshot.hash == events[3 * EVERY - 1].hash
    assert snapshots.decode(snapshot.state) == folded(events[: 3 * EVERY])


async def test_an_older_snapshot_never_replaces_a_newer_one(store: EventStore) -> None:
    match_id, events = await stored_match(store)
    for version in (40, 20):
        state = snapshots.encode(folded(events[:version]))
        assert state is not None
        await store.save_snapshot(match_id, version, snapshots.fingerprint(), state)

    snapshot = await store.latest_snapshot(match_id)

    assert snapshot is not None and snapshot.version == 40


@pytest.mark.parametrize("flaw", ["hash", "fingerprint", "checksum", "bytes"])
async def test_a_snapshot_that_does_not_provably_summarise_the_events_is_ignored(
    store: EventStore, flaw: str
) -> None:
    match_id, events = await stored_match(store)
    wrong = snapshots.encode(folded(events[:5]))
    assert wrong is not None
    await store.save_snapshot(match_id, 40, snapshots.fingerprint(), wrong)
    snapshot = await store.latest_snapshot(match_id)
    assert snapshot is not None
    changes: dict[str, Any] = {
        "hash": {"hash": bytes(32)},
        "fingerprint": {"fingerprint": "older code"},
        "checksum": {"checksum": bytes(32)},
        "bytes": {"state": b"\x93garbage"},
    }[flaw]
    flawed = msgspec.structs.replace(snapshot, **changes)

    assert snapshots.restore(flawed, events[39]) is None


async def test_a_snapshot_pointing_at_other_history_leaves_the_load_to_the_events(
    store: EventStore,
) -> None:
    match_id, events = await stored_match(store)
    _, other = await stored_match(store, index=9)
    wrong = snapshots.encode(folded(other[:40]))
    assert wrong is not None
    await store.save_snapshot(match_id, 40, "older code", wrong)

    loaded = await StateCache(store).load(match_id)

    assert loaded.state == folded(events)


def test_a_change_to_a_card_table_changes_the_fingerprint_as_a_code_change_does(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a copy of the domain package, when its Ember card table (data, not code) changes,
    then the snapshot fingerprint changes, so every snapshot is retired."""
    import shutil

    copy = tmp_path / "domain"
    shutil.copytree(snapshots.DOMAIN, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(snapshots, "DOMAIN", copy)
    snapshots.fingerprint.cache_clear()
    before = snapshots.fingerprint()
    cards = copy / "ember" / "cards.toml"
    cards.write_text(cards.read_text("utf-8").replace("vp = 1\n", "vp = 2\n", 1), "utf-8")
    snapshots.fingerprint.cache_clear()
    after = snapshots.fingerprint()
    monkeypatch.undo()
    snapshots.fingerprint.cache_clear()
    assert before != after


def test_the_fingerprint_is_learned_when_the_cache_is_made_not_at_the_first_snapshot() -> None:
    """Given no fingerprint learned yet, when a process makes its state cache (at start-up),
    then the domain's files are read then, not later on the event loop in the middle of play,
    when the first snapshot is written (issue 33: a stall of about 4 ms)."""
    snapshots.fingerprint.cache_clear()
    StateCache(MemoryStore())
    assert snapshots.fingerprint.cache_info().currsize == 1


async def test_the_cache_holds_at_most_its_capacity_the_least_recently_used_out(
    store: EventStore,
) -> None:
    """Given a cache of two matches, when three are loaded and the first again, then it holds
    two, and the one let go is the second, the least recently used (this bound is what a
    worker's memory may grow by as finished matches are replaced: docs/benchmarks.md)."""
    ids = [(await stored_match(store, index))[0] for index in (1, 2, 3)]
    cache = StateCache(store, capacity=2)
    for match_id in [*ids, ids[0]]:
        await cache.load(match_id)

    assert len(cache) == 2
    assert cache.known(ids[0]) is not None and cache.known(ids[2]) is not None
    assert cache.known(ids[1]) is None
