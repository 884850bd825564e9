"""Loading a match: its cached state if current, else the fold of its events (from a snapshot)."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

import msgspec

from domain.core import match
from domain.core.chain import link
from domain.core.codec import event_decoder
from domain.core.decider import Game
from domain.games import UnknownRules, latest, lookup
from service.errors import ServiceError, not_found
from service.store import EventStore, MatchRow, snapshots

log = logging.getLogger("hearthlog.loading")


class Loaded(msgspec.Struct, frozen=True, kw_only=True):
    """A match as of one version: its game, its row, its folded state, and the recorded times
    of the versions its owing seats began to owe at (their clocks start there; service.clock)."""

    row: MatchRow
    game: Game
    state: match.MatchState
    version: int
    times: dict[int, datetime] = {}


def game_of(game_id: str) -> Game:
    """The latest rules of a game, for a new match; 422 for a game this server does not play."""
    try:
        return latest(game_id)
    except UnknownRules:
        message = f"unknown game {game_id!r}; the catalogue is at GET /games"
        raise ServiceError(422, message) from None


def rules_of(row: MatchRow) -> Game:
    """The rules a stored match was played under; 409 if this release does not carry them."""
    try:
        return lookup(row.game, row.rules_version)
    except UnknownRules as error:
        raise ServiceError(
            409, f"this match was played under {row.game} rules version {row.rules_version}: "
            f"{error.message}; it will not be re-ruled under other rules",
        ) from None


class _Entry(msgspec.Struct, kw_only=True):
    """All this process holds of one match: its state at ``version``, the last snapshot point,
    its row, its secret server seed; one bounded cache for them all."""

    version: int
    state: Any
    snapped: int = 0
    row: MatchRow | None = None
    times: dict[int, datetime] = {}
    heard: int = 0  # the latest version a notification announced (another worker's append)
    head: bytes | None = None  # the hash of the last event folded (None: not known here)
    seed: bytes | None = None  # the server seed, once read (never shown while in play)

    def may_lead_to(self, row: MatchRow) -> bool:
        """Whether the stored match may be this state with more events: it holds at least as
        many, and at this version the same head hash (a later one is checked as it is read)."""
        if self.version > row.version or self.head is None:
            return False
        return self.version < row.version or self.head == row.head_hash


class StateCache:
    """Folded states by match id, least recently used first out; only ever a cache.

    A long match is folded from its latest usable snapshot (service.store.snapshots), and a snapshot
    is written in the background each time a remembered state passes a snapshot point.

    A read (a view, legal actions) is served from the state held here once ``current`` proves
    it the latest, by its last event alone, without the match row (docs/benchmarks.md).
    """

    def __init__(self, store: EventStore, capacity: int = 2048) -> None:
        self._store = store
        self._capacity = capacity
        self._states: OrderedDict[str, _Entry] = OrderedDict()
        self._writes: set[asyncio.Task[None]] = set()
        # Learned now, before any request: its first reading walks every file of the domain
        # (about 4 ms), which would hold the event loop at the process's first snapshot.
        snapshots.fingerprint()

    async def load(self, match_id: str) -> Loaded:
        """The match at its latest stored version. The state held here is folded on only while
        it is of the database's own history (its head hash says so): after a failover the
        database may hold fewer versions than this process saw, or other ones at the same
        numbers (docs/reliability.md), and then the match is folded again from the store."""
        row = await self._store.get_match(match_id)
        if row is None:
            self.forget(match_id)
            raise not_found(match_id)
        game = rules_of(row)
        entry = self._states.get(match_id)
        if entry is None or not entry.may_lead_to(row):
            entry = _Entry(version=0, state=None, seed=entry.seed if entry else None)
        version, state, head = entry.version, entry.state, entry.head
        if version < row.version:
            version, state, entry.snapped, seen, head = await self._catch_up(
                match_id, game, entry, row.version)
            entry.times = await self._times(match_id, state, kept_times(state, entry.times, seen))
        self._states[match_id] = entry
        self.remember(match_id, version, state, head=head, row=row)
        return Loaded(row=row, game=game, state=state, version=version, times=entry.times)

    async def current(self, match_id: str) -> Loaded | None:
        """The match as held here if it is still the latest, proven by one probe of the store
        (its last event held here and none after it: the same version and head hash, so another
        worker's append, or a failover's other history, is never served), without reading the
        match row; None when it is not proven (then ``load``)."""
        entry = self._states.get(match_id)
        if entry is None or entry.row is None or entry.head is None or not entry.version:
            return None
        if entry.heard > entry.version:  # a notification said so already
            return None
        last = await self._store.load(match_id, after=entry.version - 1)
        if len(last) != 1 or (last[0].version, last[0].hash) != (entry.version, entry.head):
            return None
        return self.known(match_id)

    def seed(self, match_id: str) -> bytes | None:
        """The match's server seed, if held."""
        entry = self._states.get(match_id)
        return None if entry is None else entry.seed

    def keep_seed(self, match_id: str, seed: bytes) -> None:
        """Hold the match's server seed with the rest of it (forgotten with it)."""
        entry = self._states.get(match_id)
        if entry is not None:
            entry.seed = seed

    def __len__(self) -> int:
        """How many matches are held (at most the capacity)."""
        return len(self._states)

    def forget(self, match_id: str) -> None:
        """Drop what is held of a match (the database does not have it)."""
        self._states.pop(match_id, None)

    def known(self, match_id: str) -> Loaded | None:
        """The match as this process last knew it, without asking the store: maybe not current,
        but never once a notification announced a later version."""
        entry = self._states.get(match_id)
        if entry is None or entry.row is None or entry.heard > entry.version:
            return None
        game = rules_of(entry.row)
        return Loaded(row=entry.row, game=game, state=entry.state, version=entry.version,
                      times=entry.times)

    def heard(self, match_id: str, version: int | None) -> None:
        """A notification: the match reached ``version`` (None: unknown), maybe by another
        process's append. A state held here and now behind is no longer offered by ``known``, so
        the next command loads the new events first instead of deciding on the old state and
        having its append refused (docs/benchmarks.md, the workers benchmark)."""
        entry = self._states.get(match_id)
        if entry is not None and (version is None or version > entry.version):
            entry.heard = max(entry.heard, version or entry.version + 1)

    async def _times(
        self, match_id: str, state: Any, times: dict[int, datetime]
    ) -> dict[int, datetime]:
        """The times kept, with any the owing seats need but the fold did not read (from before
        a snapshot) read from their events."""
        missing = set(match.owing_since(state).values()) - set(times)
        if not missing:
            return times
        read = await self._store.load(match_id, after=min(missing) - 1, upto=max(missing))
        return kept_times(state, times, ((e.version, e.recorded_at) for e in read))

    async def _catch_up(
        self, match_id: str, game: Game, entry: _Entry, head: int
    ) -> tuple[int, Any, int, list[tuple[int, datetime]], bytes | None]:
        """Fold the events after the entry's version: from a usable snapshot when far behind;
        from the first event when the next one does not chain from the entry's head (the
        database holds another history than the one held here). The version, state, snapshot
        point, (version, recorded time) of each event read, and the last event's hash."""
        version, state, snapped, events, last = entry.version, entry.state, 0, None, entry.head
        if head - version > snapshots.EVERY:
            restored = await self._restore(match_id, version)
            if restored is not None:
                version, state, events, last = restored
                snapped = version
        if events is None:
            events = await self._store.load(match_id, after=version)
            if version and events and link(last or b"", events[0].data) != events[0].hash:
                entry.times = {}
                version, state, last, events = 0, None, None, await self._store.load(match_id)
        state = match.fold(game, decode_events(game, events), state)
        seen = [(event.version, event.recorded_at) for event in events]
        if events:
            version, last = events[-1].version, events[-1].hash
        return version, state, snapped, seen, last

    async def _restore(
        self, match_id: str, version: int
    ) -> tuple[int, Any, list[Any], bytes] | None:
        """The latest snapshot's version, state, the events after it and its event's hash, if
        it may be used."""
        snapshot = await self._store.latest_snapshot(match_id)
        if snapshot is None or snapshot.version <= version:
            return None
        events = await self._store.load(match_id, after=snapshot.version - 1)
        state = snapshots.restore(snapshot, events[0] if events else None)
        return None if state is None else (snapshot.version, state, events[1:], snapshot.hash)

    def remember(
        self, match_id: str, version: int, state: match.MatchState,
        times: dict[int, datetime] | None = None, head: bytes | None = None,
        row: MatchRow | None = None,
    ) -> None:
        """Keep a state known to be the fold of the first ``version`` events (with the recorded
        times its owing seats began at, the hash of its last event and the row as of it, when
        given)."""
        entry = self._states.get(match_id) or _Entry(version=0, state=None)
        if times is not None:
            entry.times = times
        if head is not None or version != entry.version:
            entry.head = head
        if row is not None:
            entry.row = row
        if snapshots.due(entry.snapped, version):
            self._snapshot(match_id, version, state)
            entry.snapped = version
        entry.version, entry.state = version, state
        self._states[match_id] = entry
        self._states.move_to_end(match_id)
        while len(self._states) > self._capacity:
            self._states.popitem(last=False)

    def _snapshot(self, match_id: str, version: int, state: match.MatchState) -> None:
        """Write a snapshot of the state in the background; a failure costs only speed."""
        data = snapshots.encode(state)
        if data is None:
            return
        task = asyncio.get_running_loop().create_task(self._save(match_id, version, data))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _save(self, match_id: str, version: int, data: bytes) -> None:
        """Store one snapshot."""
        try:
            await self._store.save_snapshot(match_id, version, snapshots.fingerprint(), data)
        except Exception as error:  # whatever went wrong, a snapshot is only ever a cache
            log.warning("no snapshot of match %s at version %d: %r", match_id, version, error)


def decode_events(game: Game, stored: list[Any]) -> list[Any]:
    """Typed events from stored rows."""
    decoder = event_decoder(game)
    return [decoder.decode(event.data) for event in stored]


def kept_times(
    state: match.MatchState,
    times: Mapping[int, datetime],
    seen: Iterable[tuple[int, datetime]] = (),
) -> dict[int, datetime]:
    """The recorded times worth keeping: those of the versions the owing seats began at, from
    what was kept and what was just seen (version, recorded time)."""
    wanted = set(match.owing_since(state).values())
    kept = {v: at for v, at in times.items() if v in wanted}
    kept.update((v, at) for v, at in seen if v in wanted)
    return kept
