"""The play queue on Postgres: join, leave, poll, seat (service/matchmaking, service/store/queue.py)."""

from __future__ import annotations

import asyncpg
import pytest

from service import schemas
from service.errors import ServiceError
from service.loading import game_of
from service.store.queue import Clashed, TableRow
from tests.core.sources import StoppedClock
from tests.matchmaking.support import GAME, Ratings, ask, player, queue_on, seated_players


async def test_two_players_who_queue_are_seated_at_one_started_match_with_their_player_ids(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    ash, bram = queue.players.add("Ash"), queue.players.add("Bram")
    for token in (ash, bram):
        assert (await queue.service.join(token, ask(2))).status == "waiting"
    [match_id] = await queue.maker.run_pass()
    ash_seat, bram_seat = await queue.service.status(ash), await queue.service.status(bram)
    assert ash_seat.status == bram_seat.status == "seated"
    assert ash_seat.match_id == bram_seat.match_id == match_id
    seats = await seated_players(queue, match_id)
    assert seats[ash_seat.seat or 0] == player("Ash").player_id
    assert seats[bram_seat.seat or 0] == player("Bram").player_id
    assert {ash_seat.seat, bram_seat.seat} == {0, 1}


async def test_a_rated_table_makes_a_rated_match(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    for name in ("Ash", "Bram", "Cole"):
        await queue.service.join(queue.players.add(name), ask(3, rated=True))
    [match_id] = await queue.maker.run_pass()
    loaded = await queue.matches.cache.load(match_id)
    assert loaded.state.created.rated is True  # type: ignore[union-attr]


async def test_a_player_cannot_queue_twice(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    ash = queue.players.add("Ash")
    await queue.service.join(ash, ask(2))
    with pytest.raises(ServiceError) as refused:
        await queue.service.join(ash, ask((2, 4), rated=True))
    assert refused.value.status == 409
    assert "already in the queue for wick-and-ember" in refused.value.message
    assert (await queue.service.status(ash)).seats.max == 2  # the first wait unchanged


async def test_a_seated_player_may_queue_again_once_its_match_started(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    ash, bram = queue.players.add("Ash"), queue.players.add("Bram")
    for token in (ash, bram):
        await queue.service.join(token, ask(2))
    await queue.maker.run_pass()
    assert (await queue.service.join(ash, ask(3))).status == "waiting"


async def test_leaving_is_immediate_and_no_table_is_formed_for_a_player_who_left(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    ash, bram = queue.players.add("Ash"), queue.players.add("Bram")
    for token in (ash, bram):
        await queue.service.join(token, ask(2))
    await queue.service.leave(ash)
    with pytest.raises(ServiceError) as gone:
        await queue.service.status(ash)
    assert gone.value.status == 404
    assert await queue.maker.run_pass() == []
    assert (await queue.service.status(bram)).status == "waiting"


async def test_a_player_who_leaves_during_a_pass_is_not_seated_and_the_pass_writes_nothing(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    ash, bram = queue.players.add("Ash"), queue.players.add("Bram")
    for token in (ash, bram):
        await queue.service.join(token, ask(2))
    with pytest.raises(Clashed):  # raised out of the claim: its transaction rolled back
        async with queue.maker.store.claim(GAME) as claim:
            assert claim is not None
            rows = await claim.waiting()
            await queue.service.leave(ash)  # on another connection, answered at once
            table = TableRow(match_id="00000000-0000-4000-8000-000000000001", game=GAME,
                             rated=False, options={}, bots=0, bot=None, formed_at=rows[0].joined_at,
                             players=[(r.player_id, r.name) for r in rows[::-1]])  # Bram first
            await claim.seat([table])
    assert (await queue.service.status(bram)).status == "waiting"
    assert await queue.maker.store.owed(rows[0].joined_at.replace(year=3000)) == []


async def test_leaving_once_seated_is_refused_naming_the_match(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    ash, bram = queue.players.add("Ash"), queue.players.add("Bram")
    for token in (ash, bram):
        await queue.service.join(token, ask(2))
    [match_id] = await queue.maker.run_pass()
    with pytest.raises(ServiceError) as late:
        await queue.service.leave(ash)
    assert late.value.status == 409 and match_id in late.value.message


async def test_leaving_without_a_wait_is_a_404(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    with pytest.raises(ServiceError) as none:
        await queue.service.leave(queue.players.add("Ash"))
    assert none.value.status == 404


@pytest.mark.parametrize(("body", "status", "named"), [
    ({"game": "chess"}, 422, "unknown game 'chess'"),
    ({"seats": 9}, 422, "not 9"),
    ({"seats": (4, 2)}, 400, "seats.min (4) is above seats.max (2)"),
    ({"seats": (2, 9)}, 422, "not 7"),
    ({"options": {"no_such_option": 1}}, 422, "no_such_option"),
])
async def test_bad_requests_are_refused_naming_the_problem_and_queue_nobody(
        pool: asyncpg.Pool, body: dict[str, object], status: int, named: str) -> None:
    queue = queue_on(pool, StoppedClock())
    ash = queue.players.add("Ash")
    seats = body.pop("seats", 2)
    with pytest.raises(ServiceError) as refused:
        await queue.service.join(ash, ask(seats, **body))  # type: ignore[arg-type]
    assert refused.value.status == status and named in refused.value.message
    with pytest.raises(ServiceError):
        await queue.service.status(ash)


async def test_a_request_without_a_player_token_is_a_401(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    for call in (queue.service.join(None, ask(2)), queue.service.status("nobody's"),
                 queue.service.leave(None)):
        with pytest.raises(ServiceError) as refused:
            await call
        assert refused.value.status == 401


async def test_far_ratings_wait_until_the_window_widens(pool: asyncpg.Pool) -> None:
    clock = StoppedClock()
    ash, bram = "Ash", "Bram"
    queue = queue_on(pool, clock, ratings=Ratings({player(ash).player_id: 20.0,
                                                   player(bram).player_id: 26.0}))
    for name in (ash, bram):
        await queue.service.join(queue.players.add(name), ask(2))
    assert await queue.maker.run_pass() == []
    assert (await queue.service.status(f"token-{ash}")).window == 2.0
    clock.advance(8.0)  # each window: 2 + 0.5 * 8 = 6
    assert len(await queue.maker.run_pass()) == 1


async def test_a_long_wait_that_allows_bots_is_seated_with_bots(pool: asyncpg.Pool) -> None:
    clock = StoppedClock()
    queue = queue_on(pool, clock)
    ash = queue.players.add("Ash")
    await queue.service.join(ash, ask(3, bots=True))
    assert await queue.maker.run_pass() == []
    clock.advance(60.0)
    [match_id] = await queue.maker.run_pass()
    seats = await seated_players(queue, match_id)
    assert seats[(await queue.service.status(ash)).seat or 0] == player("Ash").player_id
    assert sorted(seats, key=str) == sorted([player("Ash").player_id, None, None], key=str)


async def test_nobody_else_can_take_a_seat_at_a_table_being_set_up(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    for name in ("Ash", "Bram"):
        await queue.service.join(queue.players.add(name), ask(2))
    [table] = await queue.maker.form(GAME)  # claimed: its match not made yet
    body = schemas.CreateMatch(game=GAME, seats=2, label="matchmaking", private=True)
    await queue.matches.open_table(game_of(GAME), body, table.match_id, b"\\0" * 32)
    with pytest.raises(ServiceError) as refused:
        await queue.matches.join(table.match_id, schemas.JoinSeat(name="Intruder"))
    assert refused.value.status == 403
    await queue.maker.set_up(table)  # the server still seats its players
    assert len(await seated_players(queue, table.match_id)) == 2


async def test_a_matchmaking_table_has_a_turn_clock_so_a_stranger_who_leaves_cannot_stall_it(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    for name in ("Ash", "Bram"):
        await queue.service.join(queue.players.add(name), ask(2))
    [match_id] = await queue.maker.run_pass()
    loaded = await queue.matches.cache.load(match_id)
    assert loaded.state.created.turn_seconds == 120  # type: ignore[union-attr]


async def test_the_stream_says_waiting_then_seated_and_ends(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    ash, bram = queue.players.add("Ash"), queue.players.add("Bram")
    await queue.service.join(ash, ask(2))
    updates = queue.service.follow(await queue.service.follower(ash, None))
    assert (await anext(updates)).status == "waiting"  # type: ignore[union-attr]
    await queue.service.join(bram, ask(2))
    [match_id] = await queue.maker.run_pass()
    found = [u async for u in updates if u is not None]
    assert [(u.status, u.match_id) for u in found] == [("seated", match_id)]


async def test_a_stream_ticket_opens_the_stream_until_it_expires_or_the_wait_ends(pool: asyncpg.Pool) -> None:
    clock = StoppedClock()
    queue = queue_on(pool, clock)
    ash = queue.players.add("Ash")
    await queue.service.join(ash, ask(2))
    ticket = (await queue.service.ticket(ash)).ticket
    assert await queue.service.follower(None, ticket) == player("Ash").player_id
    shaped = "-" * 36 + ticket[36:]  # shaped like a ticket, but no player's id
    for altered in (ticket[:-1] + ("0" if ticket[-1] != "0" else "1"), "not a ticket", shaped):
        with pytest.raises(ServiceError) as refused:
            await queue.service.follower(None, altered)
        assert refused.value.status == 401
    clock.advance(60.0)
    with pytest.raises(ServiceError) as expired:
        await queue.service.follower(None, ticket)
    assert expired.value.status == 401
    fresh = (await queue.service.ticket(ash)).ticket
    await queue.service.leave(ash)
    await queue.service.join(ash, ask(2))  # a new wait: a new key
    with pytest.raises(ServiceError) as old:
        await queue.service.follower(None, fresh)
    assert old.value.status == 401


async def test_options_spelling_out_a_default_wait_with_options_leaving_it_out(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    ash, bram, cole = (queue.players.add(n) for n in ("Ash", "Bram", "Cole"))
    await queue.service.join(ash, ask(2, options={"match_length": "standard"}))
    await queue.service.join(bram, ask(2))
    await queue.service.join(cole, ask(2, options={"match_length": "short"}))
    assert (await queue.service.status(cole)).options == {"match_length": "short"}
    [match_id] = await queue.maker.run_pass()
    assert (await queue.service.status(ash)).match_id == (await queue.service.status(bram)).match_id == match_id
    assert (await queue.service.status(cole)).status == "waiting"


async def test_once_its_match_is_over_a_seat_is_no_longer_the_players_place_in_the_queue(pool: asyncpg.Pool) -> None:
    queue = queue_on(pool, StoppedClock())
    ash, bram = queue.players.add("Ash"), queue.players.add("Bram")
    for token in (ash, bram):
        await queue.service.join(token, ask(2))
    [match_id] = await queue.maker.run_pass()
    assert (await queue.service.status(ash)).status == "seated"
    await queue.matches.concede_for(match_id, 0)
    assert (await queue.matches.summary(match_id)).status == "finished"
    for call in (queue.service.status(ash), queue.service.leave(bram), queue.service.ticket(ash)):
        with pytest.raises(ServiceError) as over:
            await call
        assert over.value.status == 404
    assert (await queue.service.join(ash, ask(2))).status == "waiting"
