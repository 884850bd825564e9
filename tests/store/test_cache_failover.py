"""A worker's cached states after a failover: the database it comes back to may be a standby
that had not received everything (asynchronous replication), so it may lack a match, or hold
fewer versions of one, or, once play went on there, other events under the same versions. The
cache must never outlive the database: what it holds is used only while it is the database's own
history, else the match is folded again or is a 404 (never a 500).

The database under the service is switched as a failover would: a copy of the store taken
earlier (the standby) takes the place of the one the service played on.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.core.decider import Concede
from service import schemas
from service.errors import ServiceError
from service.matches import MatchService
from service.store.memory import MemoryStore


class Switched:
    """The database a service talks to, switched to another under it (a failover)."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


async def opened(service: MatchService) -> tuple[str, list[str]]:
    """A started two-seat match and its seat tokens."""
    created = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
    tokens = [(await service.join(created.match_id, schemas.JoinSeat(name=name))).token
              for name in ("Ash", "Bryn")]
    await service.start(created.match_id, created.host_token)
    return created.match_id, tokens


async def play_until(service: MatchService, match_id: str, tokens: list[str], version: int,
                     pick: int = 0) -> int:
    """Play the legal action number ``pick`` of the seat to act until the match reaches
    ``version`` or passes it; the version reached."""
    view = await service.view(match_id, None)
    while view.version < version:
        seat = view.to_act[0]
        legal = await service.legal_actions(match_id, tokens[seat])
        command = legal.actions[pick % len(legal.actions)].command
        await service.command(match_id, tokens[seat], schemas.SendCommand(command=command))
        view = await service.view(match_id, None)
    return view.version


async def failed_over() -> tuple[MatchService, MemoryStore, str, list[str], int, int, str]:
    """Worker A plays a match on the primary; the standby copied at version ``kept``; A plays
    on to ``cached`` and opens a second match; then the standby takes the primary's place.
    (A, the standby, the match, its tokens, kept, cached, the lost match)."""
    database = Switched(MemoryStore())
    a = MatchService(database)  # type: ignore[arg-type]
    match_id, tokens = await opened(a)
    kept = await play_until(a, match_id, tokens, 6)
    standby = copy.deepcopy(database.store)
    cached = await play_until(a, match_id, tokens, kept + 4)
    lost, lost_tokens = await opened(a)
    await play_until(a, lost, lost_tokens, 6)
    database.store = standby
    return a, standby, match_id, tokens, kept, cached, lost_tokens[0] + "|" + lost


async def test_a_match_the_promoted_database_lacks_is_a_404_though_it_was_cached():
    """Given a match worker A created and played after the standby's copy, when the standby
    takes over, then the server acting in it (a bot, a turn clock) is refused with 404, not a
    store error (a 500 over HTTP); a seat's command and a view are 404 too, and A holds
    nothing of it any more."""
    a, _, _, _, _, _, lost = await failed_over()
    token, match_id = lost.split("|")
    held = a.cache.known(match_id)
    assert held is not None
    with pytest.raises(ServiceError) as acted:
        await a.act_for(match_id, 0, Concede(), held.version)
    assert acted.value.status == 404
    assert a.cache.known(match_id) is None
    with pytest.raises(ServiceError) as commanded:
        await a.command(match_id, token, schemas.SendCommand(command={"type": "concede"}))
    assert commanded.value.status == 404
    with pytest.raises(ServiceError) as viewed:
        await a.view(match_id, None)
    assert viewed.value.status == 404


async def test_a_match_that_lost_its_last_versions_is_served_as_the_database_holds_it():
    """Given worker A holding a match at a version the standby never had, when the standby
    takes over, then A serves the match at the standby's version, and play goes on from it."""
    a, _, match_id, tokens, kept, cached, _ = await failed_over()
    assert cached > kept
    assert (await a.view(match_id, None)).version == kept
    assert await play_until(a, match_id, tokens, kept + 1) > kept


async def test_other_events_under_the_versions_a_worker_cached_are_folded_again():
    """Given worker A holding a match at version v, when the standby takes over and worker B
    plays the match on to v (or past it) with other moves, then A serves B's history, not the
    one it cached: its views are B's, at the same version and after one more move."""
    a, standby, match_id, tokens, _, cached, _ = await failed_over()
    b = MatchService(standby)
    reached = await play_until(b, match_id, tokens, cached, pick=-1)
    assert reached >= cached
    assert await a.view(match_id, None) == await b.view(match_id, None)
    await play_until(a, match_id, tokens, reached + 1)
    assert await a.view(match_id, None) == await b.view(match_id, None)
