"""A worker's cached state and another worker's append: a notification makes the cache step aside.

Two MatchServices on one store stand for two worker processes. Deciding on an old state was
already safe (the append's version check refuses it, and the command is decided again); the
notification only spares that refused append: the next command loads the new events first.
"""

from __future__ import annotations

from service import schemas
from service.matches import MatchService
from service.store.memory import MemoryStore


async def two_workers_and_a_match() -> tuple[MatchService, MatchService, str, list[str]]:
    """Two services on one store, a started 2-seat match and its seat tokens."""
    store = MemoryStore()
    a, b = MatchService(store), MatchService(store)
    created = await a.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
    tokens = [(await a.join(created.match_id, schemas.JoinSeat(name=name))).token
              for name in ("Ash", "Bryn")]
    await a.start(created.match_id, created.host_token)
    return a, b, created.match_id, tokens


async def test_a_cached_state_behind_an_announced_version_is_no_longer_offered():
    """Given worker A holding the match at version v, when worker B appends and A hears v + k,
    then A's cache no longer offers its state; once A loads, it offers the new one again."""
    a, b, match_id, tokens = await two_workers_and_a_match()
    seat = (await a.view(match_id, tokens[0])).to_act[0]
    held = a.cache.known(match_id)
    assert held is not None
    legal = await b.legal_actions(match_id, tokens[seat])
    body = schemas.SendCommand(command=legal.actions[0].command)
    await b.command(match_id, tokens[seat], body)
    moved = b.cache.known(match_id)
    assert moved is not None and moved.version > held.version
    assert a.cache.known(match_id).version == held.version  # nothing told A yet: old state
    a.cache.heard(match_id, moved.version)
    assert a.cache.known(match_id) is None
    await a.view(match_id, tokens[0])
    assert a.cache.known(match_id).version == moved.version


async def test_a_notification_of_a_version_already_held_changes_nothing():
    """Given worker A's own append announced back to it (or an older one), then A's cache still
    offers its state."""
    a, _, match_id, tokens = await two_workers_and_a_match()
    await a.view(match_id, tokens[0])
    held = a.cache.known(match_id)
    a.cache.heard(match_id, held.version)
    a.cache.heard(match_id, held.version - 1)
    assert a.cache.known(match_id) == held
