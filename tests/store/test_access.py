"""The seat and host checks (service/access.py), once for every use case, over the memory store."""

from __future__ import annotations

import pytest

from service import schemas
from service.access import Access
from service.errors import ServiceError
from service.matches import MatchService
from service.store.memory import MemoryStore


async def opened() -> tuple[Access, str, str, list[str]]:
    """A Wick & Ember match with two seats taken: the checks, its id, host token, seat tokens."""
    store = MemoryStore()
    service = MatchService(store)
    created = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
    tokens = [(await service.join(created.match_id, schemas.JoinSeat(name=name))).token
              for name in ("Ash", "Bryn")]
    return Access(store), created.match_id, created.host_token, tokens


async def status_of(check) -> int:
    """The status a refused check answers with."""
    with pytest.raises(ServiceError) as refused:
        await check
    return refused.value.status


async def test_a_seat_token_acts_for_its_seat_and_sees_as_it_the_host_token_does_neither():
    """Given a match, then each seat token acts and views as its own seat; the host token may
    not act (403) and views as a spectator; a token of nobody gets 401, no token 401 to act."""
    access, match_id, host, (ash, bryn) = await opened()
    assert [await access.seat(match_id, ash), await access.seat(match_id, bryn)] == [0, 1]
    assert await access.viewer(match_id, bryn) == 1
    assert await access.viewer(match_id, host) is None and await access.viewer(match_id, None) is None
    assert await status_of(access.seat(match_id, host)) == 403
    assert await status_of(access.seat(match_id, "nobody's")) == 401
    assert await status_of(access.seat(match_id, None)) == 401
    assert await status_of(access.viewer(match_id, "nobody's")) == 401


async def test_only_the_host_token_starts_and_only_a_seats_own_token_sees_its_past():
    """Given a match, then the host check takes only the host token (a seat's: 403), and a
    seat's past is its own token's alone (another seat's or the host's: 403)."""
    access, match_id, host, (ash, bryn) = await opened()
    await access.host(match_id, host)
    assert await status_of(access.host(match_id, ash)) == 403
    assert await status_of(access.host(match_id, None)) == 401
    await access.own_seat(match_id, bryn, 1)
    assert await status_of(access.own_seat(match_id, ash, 1)) == 403
    assert await status_of(access.own_seat(match_id, host, 1)) == 403
    assert await status_of(access.own_seat(match_id, None, 1)) == 401


async def test_a_token_for_a_match_that_does_not_exist_gets_404():
    """Given no such match, then any token is answered 404, not 401."""
    access, _match_id, _host, (ash, _bryn) = await opened()
    missing = "00000000-0000-0000-0000-000000000000"
    assert await status_of(access.seat(missing, ash)) == 404
