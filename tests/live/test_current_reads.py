"""Reads from what the worker holds (issue 33): a view and legal actions are served from the
cached state, without reading the match row, once one probe of the store proves it the latest
(its last event is the store's last event); a stale state is never served.

Two MatchServices on one memory store stand for two worker processes on one database.
"""

from __future__ import annotations

from typing import Any

import msgspec

from service import schemas
from service.matches import MatchService
from service.store.memory import MemoryStore
from tests.core.sources import StoppedClock, counted_seeds


class CountingStore(MemoryStore):
    """A memory store that counts its match-row reads."""

    rows = 0

    async def get_match(self, match_id: str) -> Any:
        """The row, counted."""
        self.rows += 1
        return await super().get_match(match_id)


async def two_workers() -> tuple[CountingStore, MatchService, MatchService, str, list[str]]:
    """Two services on one store; a started two-seat Wick & Ember match made on the first, and
    its seat tokens."""
    clock = StoppedClock()
    store = CountingStore(clock=clock)
    first, second = (MatchService(store, seeds=counted_seeds(f"reads-{n}"), clock=clock)
                     for n in (1, 2))
    created = await first.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
    tokens = []
    for name in ("Ash", "Bryn"):
        joined = await first.join(created.match_id, msgspec.convert({"name": name},
                                                                    schemas.JoinSeat))
        tokens.append(joined.token)
    await first.start(created.match_id, created.host_token)
    return store, first, second, created.match_id, tokens


async def move(service: MatchService, match_id: str, tokens: list[str]) -> schemas.MatchView:
    """The seat to act plays its first legal action on ``service``; the answer's view."""
    view = await service.view(match_id, None)
    token = tokens[view.to_act[0]]
    action = (await service.legal_actions(match_id, token)).actions[0]
    sent = schemas.SendCommand(command=msgspec.to_builtins(action.command))
    _status, body = await service.command(match_id, token, sent)
    return msgspec.json.decode(body, type=schemas.CommandAnswer).view


async def test_a_worker_that_made_the_last_append_reads_no_row_for_views_or_actions():
    """Given the first worker made the last append, when a seat asks it for its view and its
    legal actions, then no match row is read and both are at that version."""
    store, first, _second, match_id, tokens = await two_workers()
    after = await move(first, match_id, tokens)
    store.rows = 0
    view = await first.view(match_id, tokens[0])
    legal = await first.legal_actions(match_id, tokens[1])
    assert store.rows == 0
    assert view.version == legal.version == after.version


async def test_another_workers_append_unheard_is_never_served_stale():
    """Given the first worker holds the match as the latest, when the second worker appends and
    no notification has reached the first, then the first's next view still shows the new
    version (the probe found a later event, and the row was read), and the one after it is
    served from the cache again."""
    store, first, second, match_id, tokens = await two_workers()
    before = (await first.view(match_id, None)).version
    after = await move(second, match_id, tokens)
    assert after.version > before
    store.rows = 0
    assert (await first.view(match_id, None)).version == after.version
    assert store.rows == 1
    assert (await first.view(match_id, None)).version == after.version
    assert store.rows == 1


async def test_another_workers_append_heard_is_read_without_a_probe():
    """Given a notification of the second worker's append reached the first, when the first
    serves a view, then it loads the match (the row read) and shows the new version."""
    store, first, second, match_id, tokens = await two_workers()
    await first.view(match_id, None)
    after = await move(second, match_id, tokens)
    first.cache.heard(match_id, after.version)
    store.rows = 0
    assert (await first.view(match_id, None)).version == after.version
    assert store.rows == 1


async def test_a_held_state_of_another_history_is_not_served():
    """Given the first worker holds the latest version with a head hash the store does not
    have (a failover put other events at those numbers), when it serves a view, then it
    reads the row and folds the store's own history instead."""
    store, first, _second, match_id, _tokens = await two_workers()
    held = first.cache.known(match_id)
    assert held is not None
    first.cache.remember(match_id, held.version, held.state, head=b"another history")
    store.rows = 0
    view = await first.view(match_id, None)
    assert store.rows == 1 and view.version == held.version


async def test_the_server_seed_is_held_with_the_match_and_forgotten_with_it():
    """Given a match played here, when its state is dropped from the cache, then its seed goes
    with it (one bounded cache per match, no second map), and is read again when needed."""
    _store, first, _second, match_id, tokens = await two_workers()
    await move(first, match_id, tokens)
    assert first.cache.seed(match_id) is not None
    first.cache.forget(match_id)
    assert first.cache.seed(match_id) is None
    await move(first, match_id, tokens)
    assert first.cache.seed(match_id) is not None
