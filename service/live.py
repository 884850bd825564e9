"""Live play: Postgres notifications fanned out in the process, and each viewer's match stream.

One LISTEN connection per server process hears ``<match_id>:<version>`` for every committed
append (service.store sends it just after the append commits). The hub wakes that match's
followers and tells the bot runner. A follower never trusts a notification's content: woken, it
reads from the store every event after the last one it sent, so a notification lost (say while
the listener reconnects) loses nothing, and nothing is sent twice. docs/live.md has the format.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime
from typing import Any

import asyncpg
import msgspec

from domain.core import match
from domain.core.codec import event_decoder
from projections.log import event_lines
from service import views
from service.api.schemas import StreamUpdate
from service.background import Background
from service.clock import kept_times
from service.loading import Loaded
from service.matches import MatchService, parse_id
from service.store import CHANNEL, StoredEvent

log = logging.getLogger("hearthlog.live")
HEARTBEAT = object()  # what a follower yields when the match was quiet for a heartbeat


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


class Hub:
    """In-process fan-out: a wake-up per follower of a match, and watchers of every match."""

    def __init__(self) -> None:
        self._followers: dict[str, set[asyncio.Event]] = {}
        self._watchers: list[Callable[[str, int | None], None]] = []

    @contextlib.contextmanager
    def follow(self, match_id: str) -> Iterator[asyncio.Event]:
        """An event set whenever the match may have changed, for as long as the block runs."""
        woken = asyncio.Event()
        self._followers.setdefault(match_id, set()).add(woken)
        try:
            yield woken
        finally:
            self._followers[match_id].discard(woken)
            if not self._followers[match_id]:
                del self._followers[match_id]

    def watch(self, callback: Callable[[str, int | None], None]) -> None:
        """Call ``callback(match_id, version)`` on every notification."""
        self._watchers.append(callback)

    def publish(self, match_id: str, version: int | None = None) -> None:
        """A match changed (to ``version``, if known): wake its followers, tell the watchers."""
        for woken in self._followers.get(match_id, ()):
            woken.set()
        for callback in self._watchers:
            callback(match_id, version)

    def resync(self) -> None:
        """Notifications may have been lost: every follower re-reads from the store."""
        for followers in self._followers.values():
            for woken in followers:
                woken.set()


class Listener(Background):
    """The process's LISTEN connection; reconnects on loss and then has every follower re-read."""

    name = "hearthlog-listener"

    def __init__(self, url: str, hub: Hub, retry: float = 1.0, ping: float = 10.0) -> None:
        self.url, self.hub, self.retry, self.ping = url, hub, retry, ping

    async def _run(self) -> None:
        """Listen, and listen again after any loss."""
        while True:
            try:
                await self._listen()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
                log.warning("the notification listener lost its connection: %r", error)
            await asyncio.sleep(self.retry)

    async def _listen(self) -> None:
        """One connection's life: listen, re-read everything once, then wait for its loss."""
        settings = {"application_name": "hearthlog-listen"}
        conn = await asyncpg.connect(self.url, server_settings=settings, timeout=10)
        lost = asyncio.Event()
        conn.add_termination_listener(lambda _: lost.set())
        try:
            await conn.add_listener(CHANNEL, self._heard)
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
    service: MatchService, hub: Hub, match_id: str, token: str | None, after: int, heartbeat: float
) -> AsyncIterator[StreamUpdate | object]:
    """Check the match and the token now (a 404 or 401 before streaming), then ``follow``."""
    seat = await service.viewer(match_id, token)
    loaded = await service.cache.load(parse_id(match_id))
    return follow(service, hub, loaded, seat, after, heartbeat)


async def follow(
    service: MatchService, hub: Hub, loaded: Loaded, seat: int | None, after: int, heartbeat: float
) -> AsyncIterator[StreamUpdate | object]:
    """The viewer's updates after version ``after``: everything missed in one, then one per change.

    Yields HEARTBEAT when the match was quiet for ``heartbeat`` seconds (and then re-reads the
    store anyway, in case a notification was lost).
    """
    mid, viewer = loaded.row.match_id, _Viewer(loaded, seat, after)
    with hub.follow(mid) as woken:
        while True:
            woken.clear()
            for update in viewer.read(await service.store.load(mid, after=viewer.read_upto)):
                yield update
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), heartbeat)
                continue
            yield HEARTBEAT


class _Viewer:
    """One viewer's fold of the match and what it has been sent."""

    def __init__(self, loaded: Loaded, seat: int | None, after: int) -> None:
        self.loaded, self.seat, self.sent = loaded, seat, after
        self.decoder = event_decoder(loaded.game)
        self.state: match.MatchState | None = None
        self.times: dict[int, datetime] = {}  # when the owing seats began to owe (service.clock)
        self.read_upto = 0

    def read(self, stored: list[StoredEvent]) -> list[StreamUpdate]:
        """Updates for newly read events: the first read in one update, later ones per command."""
        groups = [stored] if self.read_upto == 0 else _commands(stored)
        return [update for group in groups if (update := self._update(group)) is not None]

    def _update(self, group: list[StoredEvent]) -> StreamUpdate | None:
        """Fold a group of events; an update if it holds any version not yet sent."""
        if not group:
            return None
        lines = []
        for stored in group:
            event = self.decoder.decode(stored.data)
            if stored.version > self.sent:
                lines += event_lines(self.loaded.game, self.state, event, stored.version, self.seat)
            self.state = match.evolve(self.loaded.game, self.state, event)
        last, first = group[-1], max(group[0].version, self.sent + 1)
        self.read_upto = last.version
        seen = ((stored.version, stored.recorded_at) for stored in group)
        self.times = kept_times(self.state, self.times, seen)
        if last.version <= self.sent:
            return None
        self.sent = last.version
        now = msgspec.structs.replace(self.loaded, state=self.state, version=last.version,
                                      times=self.times)
        view = views.match_view(now, self.seat, last.recorded_at)
        return StreamUpdate(first=first, version=last.version, log=lines, view=view)


def _commands(stored: list[StoredEvent]) -> list[list[StoredEvent]]:
    """Events grouped by the command that caused them (its first event records the command)."""
    groups: list[list[StoredEvent]] = []
    for event in stored:
        if not groups or "command" in event.metadata or event.version == 1:
            groups.append([])
        groups[-1].append(event)
    return groups
