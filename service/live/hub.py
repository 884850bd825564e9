"""Live play: Postgres notifications fanned out in the process, and each viewer's match stream.

One LISTEN connection per server process hears ``<match_id>:<version>`` for every committed
append (service.store sends it just after the append commits). The hub pokes that match's feed
(service.live.feed: one fold per followed match, whoever follows it) and tells its listeners
(the state cache and the bot runner). A
feed never trusts a notification's content: poked, it reads from the store every event after
the last one it holds, so a notification lost (say while the listener reconnects) loses nothing,
and each follower is sent every version once. This process's own appends are handed to the hub
as they commit (``appended``, by the match service, which the first follower
subscribes it to) with the states the rules decided them with: the feed neither reads them back
nor folds them again, and the announcement of
them, heard later, finds the feed there already. docs/live.md has the format.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any, Protocol

import asyncpg
import msgspec

from service.background import Background, Retry
from service.live.feed import Feed, Served
from service.loading import Loaded
from service.matches import Committed, MatchService, parse_id
from service.store import CHANNEL, EventStore, StoredEvent

log = logging.getLogger("hearthlog.live")
HEARTBEAT = object()  # what a follower yields when the match was quiet for a heartbeat
LISTEN_CAP = 5.0  # the longest pause between reconnections: notifications resume soon after


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Timings of live play, from the environment (small values in tests)."""

    bot_delay: float = 1.0
    heartbeat: float = 15.0
    sweep: float = 1.0

    @classmethod
    def from_env(cls) -> Settings:
        """HEARTHLOG_BOT_DELAY, HEARTHLOG_HEARTBEAT_SECONDS, HEARTHLOG_SWEEP_SECONDS."""
        names = {
            "bot_delay": "BOT_DELAY",
            "heartbeat": "HEARTBEAT_SECONDS",
            "sweep": "SWEEP_SECONDS",
        }
        given = {field: os.environ.get(f"HEARTHLOG_{name}") for field, name in names.items()}
        return cls(**{field: float(value) for field, value in given.items() if value})


class Hears(Protocol):
    """What the hub tells of every notification (the state cache, the bot runner)."""

    def heard(self, match_id: str, version: int | None) -> None:
        """A match changed, to ``version`` if known."""


class Hub:
    """In-process fan-out: one feed per followed match (service.live.feed), and ``listeners``
    told of every match's change (named when it is made: service.http.bootstrap)."""

    def __init__(self, listeners: Sequence[Hears] = ()) -> None:
        self._feeds: dict[str, Feed] = {}
        self._listeners = tuple(listeners)
        self.retry = Retry(log)  # the feeds' failed reads: backed off, logged once a minute

    @contextlib.contextmanager
    def follow(self, store: EventStore, loaded: Loaded, heartbeat: float) -> Iterator[Feed]:
        """The match's feed, opened by its first follower, forgotten when its last one leaves."""
        mid = loaded.row.match_id
        feed = self._feeds.get(mid)
        if feed is None:
            feed = self._feeds[mid] = Feed(store, loaded, heartbeat, retry=self.retry)
            feed.start()
        else:
            feed.poke()  # a newcomer sees at least what the store holds now
        feed.followers += 1
        try:
            yield feed
        finally:
            feed.followers -= 1
            if not feed.followers:
                feed.stop()
                del self._feeds[mid]

    def publish(self, match_id: str, version: int | None = None) -> None:
        """A match changed (to ``version``, if known): poke its feed unless it holds that
        version already, tell the listeners."""
        feed = self._feeds.get(match_id)
        if feed is not None and (version is None or version > feed.version):
            feed.poke()
        for listener in self._listeners:
            listener.heard(match_id, version)

    def appended(self, match_id: str, stored: list[StoredEvent], committed: Committed) -> None:
        """This process committed ``stored`` (one command's events): its feed takes them, with
        the states the rules decided them with and the views after them that the command's
        answer shaped (``Feed.take``)."""
        feed = self._feeds.get(match_id)
        if feed is not None:
            feed.take(stored, committed)

    def resync(self) -> None:
        """Notifications may have been lost: every feed re-reads from the store."""
        for feed in self._feeds.values():
            feed.poke()

    def known(self, match_id: str) -> Loaded | None:
        """The match (its row and rules) if this process follows it now, else None."""
        feed = self._feeds.get(match_id)
        return None if feed is None else feed.loaded

    def followed(self) -> int:
        """How many matches this process follows now."""
        return len(self._feeds)

    def held(self) -> dict[str, int]:
        """What the feeds hold now, each bounded: a feed per followed match (until its last
        follower's stream ends), at most WINDOW changes a feed, an update a change per viewer
        (bench/traced.py counts them beside the worker's memory)."""
        changes = [change for feed in self._feeds.values() for change in feed.changes]
        return {"feeds": len(self._feeds), "changes": len(changes),
                "served updates": sum(len(change.served) for change in changes)}


class Listener(Background):
    """The process's LISTEN connection; reconnects on loss and then has every follower re-read."""

    name = "hearthlog-listener"

    def __init__(self, url: str, hub: Hub, retry: float = 1.0, ping: float = 10.0) -> None:
        self.url, self.hub, self.ping = url, hub, ping
        self.retry = Retry(log, first=retry, cap=max(retry, LISTEN_CAP))

    async def _run(self) -> None:
        """Listen, and listen again after any loss: backed off while the losses repeat, logged
        once a minute at most (service.background.Retry)."""
        while True:
            wait = self.retry.first  # the connection ended: listen again shortly
            try:
                await self._listen()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
                wait = self.retry.failed(self.name, "the notification listener lost its "
                                         "connection: %r", error, plain=True)
            await asyncio.sleep(wait)

    async def _listen(self) -> None:
        """One connection's life: listen, re-read everything once, then wait for its loss."""
        settings = {"application_name": "hearthlog-listen"}
        conn = await asyncpg.connect(self.url, server_settings=settings, timeout=10)
        lost = asyncio.Event()
        conn.add_termination_listener(lambda _: lost.set())
        try:
            await conn.add_listener(CHANNEL, self._heard)
            self.retry.succeeded(self.name)
            self.hub.resync()
            while not lost.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), self.ping)
                if not lost.is_set():
                    await conn.execute("SELECT 1", timeout=self.ping)
        finally:
            conn.terminate()

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        """A committed append: ``<match_id>:<version>``."""
        match_id, _, version = payload.partition(":")
        self.hub.publish(match_id, int(version) if version.isdigit() else None)


async def open_follow(
    service: MatchService, hub: Hub, match_id: str, token: str | None, after: int,
    heartbeat: float, ticket: str | None = None,
) -> AsyncIterator[Served | object]:
    """Check the match and the token or stream ticket now (a 404 or 401 before streaming), then
    ``follow``."""
    seat, mid = await service.stream_viewer(match_id, token, ticket), parse_id(match_id)
    loaded = hub.known(mid) or await service.cache.load(mid)  # a followed match exists
    return follow(service, hub, loaded, seat, after, heartbeat)


async def follow(
    service: MatchService, hub: Hub, loaded: Loaded, seat: int | None, after: int, heartbeat: float
) -> AsyncIterator[Served | object]:
    """The viewer's updates after version ``after``: everything missed in one, then one per change.

    Cut from the match's one feed in this process; yields HEARTBEAT when the match was quiet for
    ``heartbeat`` seconds (the feed wakes its followers then, and re-reads the store in case a
    notification was lost).
    """
    service.hand_on(hub)  # this process's appends reach its feeds without a read
    with hub.follow(service.store, loaded, heartbeat) as feed:
        sent, caught_up = after, False
        while True:
            tick = feed.tick
            caught_up = caught_up or sent == feed.version > 0
            served = feed.updates(seat, sent, caught_up)
            while served is None:  # further behind than the window: its older lines, read
                served = feed.updates(seat, sent, caught_up, await feed.history(seat, sent))
            for update in served:
                yield update
            if served:
                sent, caught_up = served[-1].version, True
                continue
            await tick.wait()  # no timer per follower: the feed wakes them all at its heartbeat
            if feed.version <= sent:
                yield HEARTBEAT
