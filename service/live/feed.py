"""Live fan-out from one fold: per followed match, one state advanced once per change.

A process keeps one ``Feed`` per match somebody follows through it. The feed alone reads the
store: once when it opens (the whole match, so it can serve any follower's log from version 1),
then the new events after each wake-up (a notification, a heartbeat, a new follower), however
many follow. A change this process appended itself is handed to the feed as it commits
(``take``), with the match the rules gave after each of its events, and kept without a read or
a fold when it is the next one; any other gap is read and folded. It keeps
its last ``WINDOW`` changes with the state after each and the log entries of their events
(public and private, each private one addressed to its seat); older lines, which only a
follower further behind needs, are read again from the store (``history``); every follower's
update (its seat's view and lines, or the spectator's) is cut from these, and the update of one
change for one viewer is shaped and encoded once, for all who follow as that viewer, and kept
only as its JSON (a change this process appended shares the shaping of the command's answer:
service.views.Shaped). A feed is forgotten when its last follower leaves. docs/live.md has the
promises, docs/benchmarks.md the figures (a feed's memory is its window's: kept small).
"""

from __future__ import annotations

import asyncio
import collections
import logging
from datetime import datetime
from typing import Any

import msgspec

from domain.core import match
from domain.core.codec import event_decoder
from domain.core.decider import LogEntry
from projections.log import LogLine, match_lines, seat_log
from service import views
from service.background import Retry
from service.loading import Loaded, kept_times
from service.matches import Committed
from service.schemas import StreamUpdate
from service.store import EventLog, StoredEvent

log = logging.getLogger("hearthlog.live")
WINDOW = 16  # changes kept with their state: a follower further behind gets one merged update


class Served(msgspec.Struct, frozen=True, kw_only=True):
    """One update as served: its versions and its JSON, encoded once for all its viewers (the
    StreamUpdate itself is not kept: a feed holds WINDOW of these per viewer kind)."""

    first: int
    version: int  # the match version after the update (its SSE id)
    data: str

    def update(self) -> StreamUpdate:
        """The StreamUpdate it encodes (for a reader of it, such as a test)."""
        return msgspec.json.decode(self.data, type=StreamUpdate)


class Change(msgspec.Struct, kw_only=True):
    """The events of one command (versions first..last) and the state after them."""

    first: int
    last: int
    state: match.MatchState
    recorded_at: datetime
    times: dict[int, datetime]  # when the owing seats began to owe (service.loading.kept_times)
    served: dict[int | None, Served] = {}
    shaped: views.Shaped | None = None  # its viewers' views and actions, while the newest change


class Feed:
    """One followed match: its fold, its log entries, its recent changes, its wake-ups."""

    def __init__(
        self, store: EventLog, loaded: Loaded, heartbeat: float, window: int = WINDOW,
        retry: Retry | None = None,
    ) -> None:
        self.store, self.loaded, self.heartbeat = store, loaded, heartbeat
        self.retry = retry or Retry(log)  # shared by a hub's feeds: one bounded log for all
        self.decoder = event_decoder(loaded.game)
        self.state: match.MatchState | None = None
        self.version = 0
        self.times: dict[int, datetime] = {}
        self.base = 0  # the entries held are those of versions base + 1 to version
        self.entries: list[list[LogEntry]] = []  # index v - base - 1: the entries of version v
        self.changes: collections.deque[Change] = collections.deque(maxlen=window)
        self.followers = 0
        self.tick = asyncio.Event()  # set, then replaced, each time the feed moves on
        self._poked = asyncio.Event()
        self._merged: dict[tuple[int | None, int], Served] = {}
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the feed's one reader."""
        self._task = asyncio.get_running_loop().create_task(self._pump(), name="hearthlog-feed")

    def stop(self) -> None:
        """Stop reading (the last follower left), and let the reader go: a cancelled task keeps
        its error, whose traceback holds the reader's frame and so this feed; a feed that kept
        the task would be a cycle only the cyclic collector frees, its window held until then."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def poke(self) -> None:
        """The match may have changed: read the store soon (pokes in between merge)."""
        self._poked.set()

    async def _pump(self) -> None:
        """Read whenever poked, and at least every heartbeat in case a notification was lost;
        after a failed read, again once backed off (sooner if poked: a notification means the
        database answers again)."""
        match_id = self.loaded.row.match_id
        while True:
            self._poked.clear()
            try:
                self.advance(await self.store.load(match_id, after=self.version))
                self.retry.succeeded(match_id)
                wait = self.heartbeat
            except Exception:  # the database may be away: read again, backed off
                wait = self.retry.failed(match_id, "the live feed of %s could not read", match_id)
            try:  # not wait_for: 3.11's can lose a cancel
                async with asyncio.timeout(wait):
                    await self._poked.wait()
            except TimeoutError:
                if not self.retry.failures(match_id):
                    self._wake()  # quiet for a heartbeat: each follower sends one

    def take(self, stored: list[StoredEvent], committed: Committed | None = None) -> None:
        """One command's events, just committed by this process: taken now, without reading
        them back, when they are the next after the version held; otherwise (a change missed, or
        the feed still opening) the feed reads the store as when poked, so nothing is skipped or
        reordered. Events it already holds change nothing. ``committed``: the states the rules
        decided them with (the change is made from those, not folded again: ``_took``) and the
        views after them that the command's answer shaped, which the change then shares
        (``_adopt``); without it they are decoded and folded (``advance``)."""
        if not stored or stored[-1].version <= self.version:
            return
        if stored[0].version != self.version + 1:
            self.poke()
            return
        try:
            if committed is None or not self._took(stored, committed.decided):
                self.advance(stored)
        except Exception:  # as a read of them would fail: the pump reads, backs off, logs
            self.poke()
            return
        if committed is not None:
            self._adopt(self.changes[-1], committed.shaped)

    def _took(self, stored: list[StoredEvent], decided: match.Decided[Any]) -> bool:
        """The command's change made from the match the rules gave before and after each of its
        events (each event's log lines from the state before it), with no decoding and no fold;
        False (nothing changed) unless they are just these events from the version held."""
        if len(decided.events) != len(stored) or decided.states[0].version != self.version:
            return False
        game = self.loaded.game
        entries = [match_lines(game, before, event)
                   for before, event in zip(decided.states, decided.events)]
        after = decided.after
        times = kept_times(after, self.times, ((e.version, e.recorded_at) for e in stored))
        change = Change(first=stored[0].version, last=stored[-1].version, state=after,
                        recorded_at=stored[-1].recorded_at, times=times)
        self._moved(entries, [change])
        return True

    def _adopt(self, change: Change, shaped: views.Shaped) -> None:
        """Share ``shaped`` as the change's views when it shows just what the feed would shape:
        this match, the change's version, its recorded time and owing times (its state is the
        one the command decided, which the events fold to)."""
        loaded = shaped.loaded
        if (loaded.row.match_id == self.loaded.row.match_id and loaded.version == change.last
                and shaped.last_event_at == change.recorded_at and loaded.times == change.times):
            change.shaped = shaped

    def advance(self, stored: list[StoredEvent]) -> None:
        """Fold newly read events, one change per command, and wake every follower; all or
        nothing (an event that does not decode changes nothing)."""
        stored = [event for event in stored if event.version > self.version]
        if not stored:
            return
        decoded = {event.version: self.decoder.decode(event.data) for event in stored}
        state, times = self.state, self.times
        entries: list[list[LogEntry]] = []
        changes: list[Change] = []
        for group in _commands(stored):
            after = self._fold(state, [decoded[event.version] for event in group], entries)
            times = kept_times(after, times, ((e.version, e.recorded_at) for e in group))
            changes.append(Change(first=group[0].version, last=group[-1].version, state=after,
                                  recorded_at=group[-1].recorded_at, times=times))
            state = after
        self._moved(entries, changes)

    def _moved(self, entries: list[list[LogEntry]], changes: list[Change]) -> None:
        """Hold the new changes (of the events after the version held, with their log entries)
        and wake every follower."""
        newest = changes[-1]
        self.state, self.version, self.times = newest.state, newest.last, newest.times
        self.entries += entries
        if self.changes:  # only the newest change keeps its views (a window of them is memory)
            self.changes[-1].shaped = None
        self.changes.extend(changes)
        self._forget_before(self.changes[0].first - 1)
        self._merged.clear()
        self._wake()

    def _forget_before(self, base: int) -> None:
        """Drop the log entries of versions up to ``base`` (before the window)."""
        if base > self.base:
            del self.entries[:base - self.base]
            self.base = base

    async def history(self, seat: int | None, sent: int) -> tuple[int, list[LogLine]]:
        """The seat's log lines after ``sent`` up to the first version held (``base``), read from
        the store and folded again: for a follower further behind than the window. Returned with
        the base it covers (the feed may move on meanwhile: then ask again)."""
        base = self.base
        stored = await self.store.load(self.loaded.row.match_id, upto=base)
        events = [self.decoder.decode(event.data) for event in stored]
        return base, seat_log(self.loaded.game, events, seat, sent)

    def _wake(self) -> None:
        """Wake every follower: the feed moved on, or a heartbeat is due."""
        self.tick.set()
        self.tick = asyncio.Event()

    def _fold(self, state: match.MatchState | None, events: list[Any],
              entries: list[list[LogEntry]]) -> match.MatchState:
        """Fold one command's events into ``state``, adding each one's log entries."""
        for event in events:
            entries.append(match_lines(self.loaded.game, state, event))
            state = match.evolve(self.loaded.game, state, event)
        if state is None:
            raise ValueError("a command with no events")
        return state

    def updates(self, seat: int | None, sent: int, caught_up: bool,
                history: tuple[int, list[LogLine]] | None = None) -> list[Served] | None:
        """The seat's updates after version ``sent``: one per change once ``caught_up`` (it was
        sent a change's end before), else (or when too far behind) everything in one. None when
        that needs the lines before the window and ``history`` (``Feed.history``) does not
        bring them up to the window now held: ask for them, then again."""
        if sent >= self.version:
            return []
        kept = self.changes[0].first - 1 if self.changes else self.version
        if not caught_up or sent < kept:
            older: list[LogLine] = []
            if sent < self.base:
                if history is None or history[0] != self.base:
                    return None
                older = history[1]
            return [self._merged_update(seat, sent, older)]
        return [self._update(change, seat) for change in self.changes if change.last > sent]

    def _update(self, change: Change, seat: int | None) -> Served:
        """One change as the seat sees it, shaped once per seat."""
        served = change.served.get(seat)
        if served is None:
            served = self._shape(seat, change.first, change.last, change)
            change.served[seat] = served
        return served

    def _merged_update(self, seat: int | None, sent: int, older: list[LogLine]) -> Served:
        """Everything after ``sent`` in one update (``older``: its lines before the window),
        shaped once per seat and starting point."""
        key = (seat, sent)
        if key not in self._merged:
            last = self.changes[-1]
            self._merged[key] = self._shape(seat, sent + 1, self.version, last, older)
        return self._merged[key]

    def _shape(self, seat: int | None, first: int, last: int, change: Change,
               older: list[LogLine] | None = None) -> Served:
        """The update of versions first..last for a seat (None: the spectator), and its JSON;
        ``older``: its lines of the versions before those held."""
        lines = list(older or []) + [
            LogLine(version=version, text=entry.text, private=entry.seat is not None)
            for version in range(max(first, self.base + 1), last + 1)
            for entry in self.entries[version - self.base - 1]
            if entry.seat is None or entry.seat == seat
        ]
        if change.shaped is None:  # a merged update ends with its last change: the same view
            now = msgspec.structs.replace(self.loaded, state=change.state, version=last,
                                          times=change.times)
            change.shaped = views.Shaped(now, change.recorded_at)
        shaped = change.shaped
        update = StreamUpdate(game=self.loaded.row.game, first=first, version=last, log=lines,
                              view=shaped.view(seat),
                              actions=None if seat is None else shaped.actions(seat))
        return Served(first=first, version=last, data=msgspec.json.encode(update).decode())


def _commands(stored: list[StoredEvent]) -> list[list[StoredEvent]]:
    """Events grouped by the command that caused them (its first event records the command)."""
    groups: list[list[StoredEvent]] = []
    for event in stored:
        if not groups or "command" in event.metadata or event.version == 1:
            groups.append([])
        groups[-1].append(event)
    return groups
