"""Two server processes matching one queue, and a restart in the middle of it: nobody is seated
twice, nobody is lost (issue #37: the race test; docs/matchmaking.md)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator

import asyncpg
import pytest

from domain.matchmaking import Table
from service.errors import ServiceError
from service.matchmaking.matcher import table_row
from service.store.provisioning import create_pool
from service.store.queue import Claim, Clashed, QueueRow, TableRow
from tests.core.sources import StoppedClock
from tests.matchmaking.support import Players, Queue, ask, player, queue_on, seated_players

NAMES = [f"Player {n:02}" for n in range(24)]


@pytest.fixture
async def second_pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    """Another pool on the test's database: a second server process's."""
    pool = await create_pool(database_url)
    yield pool
    await pool.close()


async def everyone_seated_once(queue: Queue, names: list[str], waiting: int = 0) -> None:
    """Every player is in exactly one started match (but ``waiting`` players left over, who
    still wait), and the matches hold nobody else."""
    rows = await queue.maker.store.pool.fetch("SELECT match_id::text AS m FROM queue_tables")
    seats: list[str | None] = []
    for row in rows:
        seats.extend(await seated_players(queue, row["m"]))
    counted = Counter(seat for seat in seats if seat is not None)
    statuses = {name: (await queue.service.status(f"token-{name}")).status for name in names}
    assert list(statuses.values()).count("waiting") == waiting
    assert counted == Counter(player(name).player_id for name in names
                              if statuses[name] == "seated")


async def test_two_processes_matching_at_once_never_seat_a_player_twice(
        pool: asyncpg.Pool, second_pool: asyncpg.Pool) -> None:
    clock, players = StoppedClock(), Players()
    one, two = queue_on(pool, clock, players), queue_on(second_pool, clock, players)
    for n, name in enumerate(NAMES):  # they join while both processes pass again and again
        await (one if n % 2 else two).service.join(players.add(name), ask((2, 3)))
        if n % 5 == 4:
            await asyncio.gather(one.maker.run_pass(), two.maker.run_pass())
    for _ in range(3):
        await asyncio.gather(one.maker.run_pass(), two.maker.run_pass())
    left = len(await one.maker.store.pool.fetch(
        "SELECT 1 FROM queue_entries WHERE match_id IS NULL"))
    assert left <= 1  # equal ratings: any two still waiting would have been seated
    await everyone_seated_once(one, NAMES, waiting=left)


async def test_two_processes_passing_over_the_same_waiting_players_form_each_table_once(
        pool: asyncpg.Pool, second_pool: asyncpg.Pool) -> None:
    clock, players = StoppedClock(), Players()
    one, two = queue_on(pool, clock, players), queue_on(second_pool, clock, players)
    for name in NAMES:
        await one.service.join(players.add(name), ask(2))
    made = await asyncio.gather(*(q.maker.run_pass() for q in (one, two, one, two)))
    assert len({m for found in made for m in found}) == len(NAMES) // 2
    await everyone_seated_once(two, NAMES)


async def test_a_restart_in_the_middle_of_a_queue_loses_nobody(
        database_url: str, pool: asyncpg.Pool) -> None:
    clock, players = StoppedClock(), Players()
    before = await create_pool(database_url)
    first = queue_on(before, clock, players)
    for name in NAMES[:7]:
        await first.service.join(players.add(name), ask(2))
    await first.maker.run_pass()  # three tables; one player still waits
    for name in NAMES[7:]:
        await first.service.join(players.add(name), ask(2))
    await before.close()  # the process is gone
    after = queue_on(pool, clock, players)
    await after.maker.run_pass()
    await everyone_seated_once(after, NAMES)


async def test_a_table_claimed_just_before_a_crash_is_set_up_by_the_next_pass(pool: asyncpg.Pool) -> None:
    clock, players = StoppedClock(), Players()
    crashed = queue_on(pool, clock, players)
    for name in NAMES[:4]:
        await crashed.service.join(players.add(name), ask(2))
    formed = await crashed.maker.form("wick-and-ember")  # claimed, then the process died
    assert len(formed) == 2
    assert (await crashed.service.status(f"token-{NAMES[0]}")).status == "forming"
    survivor = queue_on(pool, clock, players)
    assert await survivor.maker.run_pass() == []  # another process may be setting it up still
    clock.advance(11.0)
    assert sorted(await survivor.maker.run_pass()) == sorted(t.match_id for t in formed)
    await everyone_seated_once(survivor, NAMES[:4])


async def test_a_table_that_cannot_be_set_up_lets_its_players_go_after_ten_minutes(pool: asyncpg.Pool) -> None:
    clock, players = StoppedClock(), Players()
    queue = queue_on(pool, clock, players)
    for name in NAMES[:2]:
        await queue.service.join(players.add(name), ask(2))
    [table] = await queue.maker.form("wick-and-ember")

    async def refused(*_: object) -> None:
        raise ServiceError(422, "these options are no longer played")

    queue.maker.matches.open_table = refused  # type: ignore[method-assign]
    clock.advance(11.0)
    assert await queue.maker.run_pass() == []  # tried, failed, still owed
    assert (await queue.service.status(f"token-{NAMES[0]}")).status == "forming"
    clock.advance(600.0)
    assert await queue.maker.run_pass() == []
    for name in NAMES[:2]:
        with pytest.raises(ServiceError) as gone:
            await queue.service.status(f"token-{name}")
        assert gone.value.status == 404
    assert (await queue.service.join(f"token-{NAMES[0]}", ask(2))).status == "waiting"
    assert await queue.maker.store.owed(clock()) == []
    assert table.match_id not in await queue.maker.run_pass()


async def test_without_the_lock_the_claims_guard_alone_seats_a_player_once(
        pool: asyncpg.Pool, second_pool: asyncpg.Pool) -> None:
    clock, players = StoppedClock(), Players()
    queue = queue_on(pool, clock, players)
    for name in NAMES[:2]:
        await queue.service.join(players.add(name), ask(2))
    async with pool.acquire() as one, second_pool.acquire() as two:
        first, second = Claim(one, "wick-and-ember"), Claim(two, "wick-and-ember")
        async with one.transaction():  # two passes that both skipped the advisory lock
            rows = await first.waiting()
            async with two.transaction():
                assert [r.player_id for r in await second.waiting()] == [r.player_id for r in rows]
                await second.seat([table_of(rows)])
            with pytest.raises(Clashed):  # the first pass's update finds them seated: it rolls back
                await first.seat([table_of(rows)])
    [seated] = await pool.fetch("SELECT match_id::text AS m FROM queue_tables")
    assert {(await queue.service.status(f"token-{n}")).match_id for n in NAMES[:2]} == {seated["m"]}


def table_of(rows: list[QueueRow]) -> TableRow:
    """One table of the rows' players, under a new match id."""
    formed = Table(game="wick-and-ember", rated=False, options={},
                   players=[row.player_id for row in rows])
    return table_row(formed, {row.player_id: row.name for row in rows}, rows[0].joined_at)
