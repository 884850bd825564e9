"""The play queue on a Citus cluster placed as `hearthlog distribute` places it (queue_entries a
reference table, queue_tables in the match group): a pass that claims and sets up tables, a
player who leaves mid-pass, the owed tables read over every shard."""

from __future__ import annotations

import pytest

from domain.matchmaking import Table
from service.matchmaking.matcher import table_row
from service.store.provisioning import create_pool
from service.store.queue import Clashed
from tests.core.sources import StoppedClock
from tests.matchmaking.support import GAME, ask, queue_on, seated_players

pytestmark = pytest.mark.slow  # a Citus cluster


async def test_the_queue_seats_players_and_refuses_a_leaver_on_a_citus_cluster(citus_database: str) -> None:
    pool = await create_pool(citus_database)
    try:
        queue = queue_on(pool, StoppedClock())
        names = [f"Citus {n}" for n in range(6)]
        for name in names:
            await queue.service.join(queue.players.add(name), ask((2, 3)))
        made = await queue.maker.run_pass()
        assert len(made) == 2  # two tables of three
        for match_id in made:
            assert len(await seated_players(queue, match_id)) == 3
        assert {(await queue.service.status(f"token-{n}")).status for n in names} == {"seated"}
        for name in ("Late 1", "Late 2"):
            await queue.service.join(queue.players.add(name), ask(2))
        with pytest.raises(Clashed):
            async with queue.maker.store.claim(GAME) as claim:
                assert claim is not None
                rows = await claim.waiting()
                await queue.service.leave("token-Late 1")  # on another connection, at once
                formed = Table(game=GAME, rated=False, options={},
                               players=[row.player_id for row in rows])
                await claim.seat([table_row(formed, {r.player_id: r.name for r in rows},
                                            rows[0].joined_at)])
        assert (await queue.service.status("token-Late 2")).status == "waiting"
        assert await queue.maker.store.owed(rows[0].joined_at.replace(year=3000)) == []
    finally:
        await pool.close()
