"""Live fan-out from one fold, in process: one store read per change however many follow, and
each follower still gets exactly its own updates, late, behind or resumed.

Every match here is dealt from counted_seeds(DEALS) (tests/core/sources.py) and played by a seeded
``random.Random``, so each test plays the same commands on the same deal every run."""

from __future__ import annotations

import asyncio
import gc
import random
import weakref
from typing import Any

import msgspec
import pytest

from domain.core import match
from projections.log import seat_log
from service import schemas, views
from service.live.feed import WINDOW, Feed
from service.live.hub import Hub, follow
from service.loading import Loaded, decode_events
from service.matches import MatchService
from service.store.memory import MemoryStore
from tests.core.sources import counted_seeds

QUIET = 60.0  # a heartbeat far longer than any test, so every read counted is a change's
DEALS = "live-fanout"


class CountingStore(MemoryStore):
    """The memory store, counting the event reads (loads) made of it while ``counting``."""

    def __init__(self) -> None:
        super().__init__()
        self.loads, self.counting = 0, True

    async def load(self, match_id: str, after: int = 0, upto: int | None = None) -> Any:
        """Count, then read."""
        self.loads += self.counting
        return await super().load(match_id, after, upto)


class Table:
    """A started match of people in process, played by random legal commands."""

    def __init__(self, service: MatchService, match_id: str, tokens: list[str]) -> None:
        self.service, self.match_id, self.tokens = service, match_id, tokens

    @classmethod
    async def open(
        cls, service: MatchService, seats: int, options: dict[str, Any] | None = None
    ) -> Table:
        """Create, seat and start a Wick & Ember match."""
        created = await service.create(
            schemas.CreateMatch(game="wick-and-ember", seats=seats, options=options or {})
        )
        tokens = []
        for n in range(seats):
            answer = await service.join(created.match_id, schemas.JoinSeat(name=f"P{n}"))
            tokens.append(answer.token or "")
        await service.start(created.match_id, created.host_token)
        return cls(service, created.match_id, tokens)

    async def play(self, rng: random.Random) -> int | None:
        """One random legal command by a seat to act; the new version (None: it is over)."""
        for token in self.tokens:
            actions = (await self.service.legal_actions(self.match_id, token)).actions
            if actions:
                body = schemas.SendCommand(command=rng.choice(actions).command)
                await self.service.command(self.match_id, token, body)
                return (await self.service.cache.load(self.match_id)).version
        return None


async def collect(
    updates: Any, into: list[Any], until: int, arrived: asyncio.Event | None = None
) -> None:
    """Keep a follower's updates until one reaches version ``until``; set ``arrived`` on each."""
    async for update in updates:
        into.append(update)
        if arrived is not None:
            arrived.set()
        if getattr(update, "version", 0) >= until:
            return


async def expected(store: MemoryStore, loaded: Loaded, seat: int | None) -> list[Any]:
    """What the seat may read of the whole log, as the log projection gives it."""
    events = decode_events(loaded.game, await store.load(loaded.row.match_id))
    return [msgspec.to_builtins(line) for line in seat_log(loaded.game, events, seat)]


def view_at(store_events: list[Any], loaded: Loaded, seat: int | None, version: int) -> Any:
    """The seat's view of the fold of the first ``version`` events (its board and to_act)."""
    state = match.fold(loaded.game, decode_events(loaded.game, store_events[:version]))
    now = msgspec.structs.replace(loaded, state=state, version=version)
    view = views.match_view(now, seat, store_events[version - 1].recorded_at)
    return msgspec.json.decode(msgspec.json.encode(view))


async def feed_of_four_twelve_commands_on() -> tuple[Loaded, Feed, list[Any]]:
    """A two-seat match twelve commands on (seeded), and a feed keeping four changes advanced
    to it: (the loaded match, the feed, the stored events)."""
    store = CountingStore()
    service = MatchService(store, seeds=counted_seeds(DEALS))
    table = await Table.open(service, 2)
    rng = random.Random(5)
    for _ in range(12):
        await table.play(rng)
    loaded = await service.cache.load(table.match_id)
    feed = Feed(store, loaded, QUIET, window=4)
    stored = await store.load(table.match_id)
    feed.advance(stored)
    return loaded, feed, stored


async def test_many_followers_cost_one_store_read_per_change_and_each_gets_its_own_view():
    """Given three seats and twenty spectators following one match in one process, when the
    seats play twenty commands through another process (its own service on the same store),
    each announced, then the store is read once per command, every follower's log is exactly
    its seat's (private lines only its own) and every view is the one of its seat at its
    version."""
    store = CountingStore()
    service, hub = MatchService(store, seeds=counted_seeds(DEALS)), Hub()
    opened = await Table.open(service, 3)
    table = Table(MatchService(store), opened.match_id, opened.tokens)
    loaded = await service.cache.load(table.match_id)
    seats: list[int | None] = [0, 1, 2, *[None] * 20]
    got: list[list[Any]] = [[] for _ in seats]
    streams = [follow(service, hub, loaded, seat, 0, QUIET) for seat in seats]
    await asyncio.gather(*(collect(s, g, loaded.version) for s, g in zip(streams, got)))
    await asyncio.sleep(0.05)  # the feed's read for the newcomers' pokes
    store.counting, store.loads, rng, version = False, 0, random.Random(7), loaded.version
    arrived = asyncio.Event()
    tasks = [asyncio.create_task(collect(s, g, 10**9, arrived)) for s, g in zip(streams, got)]
    for _ in range(20):
        version = await table.play(rng) or version
        store.counting = True  # only the fan-out's reads, not the commands' own
        hub.publish(table.match_id, version)
        while any(g[-1].version < version for g in got):
            arrived.clear()
            await arrived.wait()
        store.counting = False
    per_change = store.loads
    for task in tasks:
        task.cancel()
    events = await store.load(table.match_id)

    assert per_change == 20
    for seat, updates in zip(seats, got):
        lines = [msgspec.to_builtins(line) for u in updates for line in u.update().log]
        assert lines == await expected(store, loaded, seat)
        last = updates[-1]
        assert msgspec.json.decode(last.data)["view"] == view_at(events, loaded, seat, last.version)
    assert any(line.private for u in got[0] for line in u.update().log)
    assert not any(line.private for updates in got[3:] for u in updates for line in u.update().log)


async def test_the_appending_process_reads_nothing_back_and_serves_what_a_reader_would():
    """Given seats 0 and 1 and a spectator following one match in the process that plays it and
    in another process (its own service and hub on the same stored match), when twenty
    commands are played, each announced to both, then the playing process's feed reads nothing
    from the store (it takes each change as it commits) while the other reads once a change,
    and every follower in the playing process is sent exactly the messages, byte for byte, that
    its counterpart reading the store is sent."""
    ours, theirs = CountingStore(), CountingStore()
    theirs._matches = ours._matches  # one database, two processes' connections to it
    service, hub = MatchService(ours, seeds=counted_seeds(DEALS)), Hub()
    other, other_hub = MatchService(theirs), Hub()
    table = await Table.open(service, 2)
    loaded = await service.cache.load(table.match_id)
    seats: list[int | None] = [0, 1, None]
    here = [follow(service, hub, loaded, seat, 0, QUIET) for seat in seats]
    there = [follow(other, other_hub, loaded, seat, 0, QUIET) for seat in seats]
    got: list[list[Any]] = [[] for _ in range(6)]
    await asyncio.gather(*(collect(s, g, loaded.version) for s, g in zip(here + there, got)))
    ours.counting, ours.loads, theirs.loads = False, 0, 0
    rng, version = random.Random(11), loaded.version
    arrived = asyncio.Event()
    tasks = [asyncio.create_task(collect(s, g, 10**9, arrived))
             for s, g in zip(here + there, got)]
    for _ in range(20):
        version = await table.play(rng) or version
        ours.counting = True  # the playing process's fan-out only, not its commands' own reads
        hub.publish(table.match_id, version)  # its own announcement, heard back
        other_hub.publish(table.match_id, version)
        while any(g[-1].version < version for g in got):
            arrived.clear()
            await arrived.wait()
        ours.counting = False
    for task in tasks:
        task.cancel()

    assert (ours.loads, theirs.loads) == (0, 20)
    assert all(g[-1].version == version for g in got)
    for mine, counterpart in zip(got[:3], got[3:]):
        assert [u.data for u in mine] == [u.data for u in counterpart]


async def test_a_feed_behind_reads_the_change_it_missed_before_taking_its_own():
    """Given a feed at the head of a match, when another process appends a change the feed was
    not told of and this process then hands it its own next change, then the feed does not fold
    the handed change over the gap but asks for a read; once read it holds both changes once,
    in order, and the same change handed again late changes nothing."""
    store = CountingStore()
    service = MatchService(store, seeds=counted_seeds(DEALS))
    table = await Table.open(service, 2)
    rng = random.Random(1)
    loaded = await service.cache.load(table.match_id)
    feed = Feed(store, loaded, QUIET)
    feed.advance(await store.load(table.match_id))
    start = feed.version
    missed = await Table(MatchService(store), table.match_id, table.tokens).play(rng)
    mine = await table.play(rng)
    own = await store.load(table.match_id, after=missed or 0)

    feed.take(own)
    assert (feed.version, feed._poked.is_set()) == (start, True)  # not folded over the gap
    feed.advance(await store.load(table.match_id, after=feed.version))  # the poked feed's read
    feed.take(own)

    assert missed is not None and mine is not None and start < missed < mine
    assert [(c.first, c.last) for c in feed.changes][-2:] == [(start + 1, missed),
                                                             (missed + 1, mine)]
    assert feed.version == mine


async def test_a_late_or_resuming_follower_gets_everything_after_its_version_in_one_update():
    """Given a match twelve commands in, when a seat follows from version 5 (Last-Event-ID),
    then its first update covers 6 to the head with its lines from 6 on, and the next change
    comes alone. (Ten embers to win: at six, one seat won the match within twelve commands on
    about one deal in 1,700, and there was no thirteenth.)"""
    store = CountingStore()
    service, hub = MatchService(store, seeds=counted_seeds(DEALS)), Hub()
    table = await Table.open(service, 2, {"ember_target": 10})
    rng = random.Random(3)
    for _ in range(12):
        await table.play(rng)
    loaded = await service.cache.load(table.match_id)
    spectator, got = follow(service, hub, loaded, None, 0, QUIET), []
    await collect(spectator, got, loaded.version)
    resumed, later = follow(service, hub, loaded, 1, 5, QUIET), []
    await collect(resumed, later, loaded.version)
    version = await table.play(rng) or loaded.version
    hub.publish(table.match_id, version)
    await collect(resumed, later, version)

    first, then = later[0].update(), later[1].update()
    assert (first.first, first.version) == (6, loaded.version)
    assert [msgspec.to_builtins(x) for x in first.log] == [
        line for line in await expected(store, loaded, 1) if line["version"] >= 6
        and line["version"] <= loaded.version]
    assert (then.first, then.version) == (loaded.version + 1, version)


async def test_a_follower_further_behind_than_the_window_gets_one_merged_update():
    """Given a feed keeping four changes that moved on twelve commands past a follower's
    version, then that follower's next update is one covering all of them; one within the
    window gets one update per command."""
    _, feed, _ = await feed_of_four_twelve_commands_on()
    recent = feed.changes[-3].first - 1

    assert feed.updates(0, 1, caught_up=True) is None  # its lines before the window are read
    behind = feed.updates(0, 1, True, await feed.history(0, 1))
    close = feed.updates(0, recent, caught_up=True)

    assert behind is not None and close is not None
    assert [(u.update().first, u.version) for u in behind] == [(2, feed.version)]
    assert [u.version for u in close] == [c.last for c in list(feed.changes)[-3:]]
    assert len(feed.changes) == 4


async def test_a_feed_holds_only_its_windows_log_and_reads_older_lines_again():
    """Given a feed keeping four changes of a match twelve commands on, then it holds the log
    entries of the window's versions only, and a follower from the start gets every line of
    its seat, exactly the log route's, in its one merged update (the older ones read again
    from the store): the feed's memory does not grow with the match (docs/benchmarks.md)."""
    loaded, feed, stored = await feed_of_four_twelve_commands_on()

    assert feed.base == feed.changes[0].first - 1 > 0
    assert len(feed.entries) == feed.version - feed.base
    served = feed.updates(1, 0, False, await feed.history(1, 0))
    assert served is not None and len(served) == 1
    whole = seat_log(loaded.game, [feed.decoder.decode(e.data) for e in stored], 1)
    assert served[0].update().log == whole


async def test_a_match_is_forgotten_when_its_last_follower_leaves():
    """Given two followers of a match, when one leaves the process still follows it; when the
    other leaves too, the hub holds no feed and an announcement reads nothing. (The feed's
    reader task is awaited to its end before the announcement: once it has ended nothing is
    left that could read, so "reads nothing" is not a guess after a short sleep.)"""
    store = CountingStore()
    service, hub = MatchService(store, seeds=counted_seeds(DEALS)), Hub()
    table = await Table.open(service, 2)
    loaded = await service.cache.load(table.match_id)
    running = asyncio.all_tasks()
    first, second = (follow(service, hub, loaded, n, 0, QUIET) for n in (0, 1))
    await collect(first, [], loaded.version)
    await collect(second, [], loaded.version)
    still = hub.followed()
    [reader] = [t for t in asyncio.all_tasks() - running if t.get_name() == "hearthlog-feed"]

    await first.aclose()
    after_one = hub.followed()
    await second.aclose()
    await asyncio.wait_for(asyncio.gather(reader, return_exceptions=True), 5)  # it was stopped
    reads = store.loads
    hub.publish(table.match_id, loaded.version + 1)

    assert reader.done() and (still, after_one, hub.followed(), store.loads) == (1, 1, 0, reads)


async def followed_six_changes_on() -> tuple[MatchService, Hub, str, list[Any], asyncio.Task[Any]]:
    """A two-seat match (seeded) followed by seats 0 and 1 in the process that plays it, six
    commands on, each seat sent each change: (the service, the hub, the match id, the two
    streams, the feed's reader task)."""
    store = CountingStore()
    service, hub = MatchService(store, seeds=counted_seeds(DEALS)), Hub()
    table = await Table.open(service, 2)
    loaded = await service.cache.load(table.match_id)
    running = asyncio.all_tasks()
    streams = [follow(service, hub, loaded, seat, 0, QUIET) for seat in (0, 1)]
    await asyncio.gather(*(collect(s, [], loaded.version) for s in streams))
    rng, version = random.Random(3), loaded.version
    for _ in range(6):
        version = await table.play(rng) or version
        await asyncio.gather(*(collect(s, [], version) for s in streams))
    [reader] = [t for t in asyncio.all_tasks() - running if t.get_name() == "hearthlog-feed"]
    return service, hub, table.match_id, streams, reader


async def test_a_feed_its_last_follower_left_is_freed_at_once_not_by_the_cyclic_collector():
    """Given two seats following a match through six changes, when both leave and the feed's
    reader has ended, then the feed is gone with the cyclic collector off: nothing it held is
    kept for a full collection. (It kept its cancelled reader, whose frame held the feed: a
    cycle, so under churn every finished match's window stayed until a full collection, which
    with the worker's collector tuned came seldom: docs/benchmarks.md.)"""
    _, hub, match_id, streams, reader = await followed_six_changes_on()
    feed = weakref.ref(hub._feeds[match_id])
    gc.disable()
    try:
        for stream in streams:
            await stream.aclose()
        await asyncio.wait_for(asyncio.gather(reader, return_exceptions=True), 5)
        del reader, streams
        gone = feed() is None
    finally:
        gc.enable()

    assert gone


async def test_the_hub_tells_what_its_feeds_hold_and_holds_nothing_once_they_are_left():
    """Given seats 0 and 1 following a match in the process that plays it, when six commands
    are played and each seat is sent each change, then the hub holds one feed, at most a
    window of changes and one served update per change and seat (twelve: the first, merged
    update is not a change's); once both leave, nothing (bench/traced.py counts these beside a
    worker's memory, and a worker's state cache says how many matches it holds, at most its
    capacity)."""
    service, hub, _, streams, _ = await followed_six_changes_on()
    held = hub.held()
    for stream in streams:
        await stream.aclose()

    assert held["feeds"] == 1 and held["served updates"] == 12, held
    assert 6 < held["changes"] <= WINDOW, held
    assert hub.held() == {"feeds": 0, "changes": 0, "served updates": 0}
    assert len(service.cache) == 1


async def test_a_read_that_does_not_decode_leaves_the_feed_as_it_was():
    """Given a feed at the head of a match, when it is handed a good event and then one no
    decoder knows, then it raises and holds the same version, log and changes as before."""
    store = CountingStore()
    service = MatchService(store, seeds=counted_seeds(DEALS))
    table = await Table.open(service, 2)
    await table.play(random.Random(1))
    events = await store.load(table.match_id)
    loaded = await service.cache.load(table.match_id)
    feed = Feed(store, loaded, QUIET)
    feed.advance(events[:-1])
    before = (feed.version, len(feed.entries), len(feed.changes), feed.state)
    bad = msgspec.structs.replace(events[-1], version=events[-1].version + 1,
                                  data=b'{"type": "no_such_event"}')

    with pytest.raises(msgspec.ValidationError):
        feed.advance([events[-1], bad])

    assert (feed.version, len(feed.entries), len(feed.changes), feed.state) == before
    feed.advance(events[-1:])
    assert feed.version == events[-1].version
