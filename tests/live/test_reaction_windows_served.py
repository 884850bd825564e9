"""A reaction window served by the match service: the test game Hexes (every test session
carries it). Only the window's seat may answer (others get a 409 naming it), and a seat out of time in a
window is answered for with the window's default, allow."""

from __future__ import annotations

import msgspec
import pytest

from service import schemas
from service.errors import ServiceError
from service.live.bots import BotRunner
from service.matches import MatchService
from service.store.memory import MemoryStore
from tests.live.stream_client import wait_for


async def circle(service: MatchService, seats: int, **body) -> tuple[str, list[str]]:
    """A started match of Hexes with a person in each seat; its id and the seats' tokens."""
    created = await service.create(schemas.CreateMatch(game="test-hexes", seats=seats, **body))
    tokens = []
    for n in range(seats):
        joined = await service.join(created.match_id, schemas.JoinSeat(name=f"Seat {n}"))
        tokens.append(joined.token)
    await service.start(created.match_id, created.host_token)
    return created.match_id, tokens


async def send(service: MatchService, match_id: str, token: str, command: dict) -> dict:
    """Send a command; the answer."""
    status, answer = await service.command(match_id, token, schemas.SendCommand(command=command))
    assert status == 200
    return msgspec.json.decode(answer)


async def test_given_an_open_window_then_another_seat_is_refused_naming_who_it_waits_on(
):
    """Given seat 0 hexing seat 1, when seat 2 rests, then a 409 says the window waits on seat
    1 and nothing was appended; seat 1's legal actions are allow and salt."""
    service = MatchService(MemoryStore())
    match_id, tokens = await circle(service, 3)
    answer = await send(service, match_id, tokens[0], {"type": "hex", "target": 1})
    assert answer["view"]["to_act"] == [1]
    with pytest.raises(ServiceError) as refused:
        await send(service, match_id, tokens[2], {"type": "rest"})
    assert refused.value.status == 409 and "waits until seat 1 answers" in refused.value.message
    assert (await service.view(match_id, tokens[2])).version == answer["version"]
    actions = (await service.legal_actions(match_id, tokens[1])).actions
    assert [action.command for action in actions] == [{"type": "allow"}, {"type": "salt"}]


async def test_given_a_target_out_of_time_then_the_server_allows_for_it():
    """Given a one-second clock and seat 0's hex on seat 1, when seat 1 never answers, then the
    server times it out with allow (the window's default), and the hex lands."""
    store = MemoryStore()
    service = MatchService(store)
    runner = BotRunner(service, bot_delay=0)
    match_id, tokens = await circle(service, 2, turn_seconds=1)
    await send(service, match_id, tokens[0], {"type": "hex", "target": 1})
    runner.poke(match_id)

    async def answered() -> list:
        """The stored events after the time-out, once there is one."""
        rows = await store.load(match_id)
        types = [row.type for row in rows]
        return rows[types.index("seat_timed_out"):] if "seat_timed_out" in types else []

    try:
        rows = await wait_for(answered, seconds=10)
    finally:
        await runner.stop()
    assert [row.type for row in rows[:3]] == ["seat_timed_out", "allowed", "hex_resolved"]
    assert rows[0].metadata["command"] == {"type": "time_out", "seat": 1,
                                           "action": {"type": "allow"}}
    assert (await service.view(match_id, None)).board.health == (2, 1)
