"""Players on a Citus cluster placed as `hearthlog distribute` places it: ``players`` a reference
table, and every statement of the player store accepted there (a player's seat in one match, a
page of its matches over every shard, its finished matches, its tournaments)."""

from __future__ import annotations

import pytest

from domain.core.match import JoinSeat
from service import auth, schemas
from service.matches import MatchService
from service.store import PostgresStore
from service.store.players import NewPlayer, PlayerStore
from service.store.provisioning import create_pool
from tests.core.sources import counted_seeds

pytestmark = pytest.mark.slow  # a Citus cluster


async def test_the_player_store_runs_on_a_citus_cluster(citus_database: str):
    pool = await create_pool(citus_database)
    try:
        players = PlayerStore(pool)
        ash = await players.create(NewPlayer(
            player_id="00000000-0000-4000-8000-00000000000a", name="Ash", name_key="ash",
            token_hash=auth.token_hash("ash's token")))
        placed = await pool.fetchval("SELECT partmethod::text FROM pg_dist_partition "
                                     "WHERE logicalrelid = 'players'::regclass")
        matches = MatchService(PostgresStore(pool), seeds=counted_seeds("citus players"))
        ids = []
        for _ in range(3):
            made = await matches.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
            await matches.take_seat(made.match_id, JoinSeat(name="Bryn"), None, expected=1)
            await matches.take_seat(made.match_id, JoinSeat(name="Ash", player=ash.player_id),
                                    None, expected=2)
            ids.append(made.match_id)

        seat = await players.seat_for_token(ids[0], auth.token_hash("ash's token"))
        page = await players.seats(ash.player_id, 2, 0)
        rest = await players.seats(ash.player_id, 2, 2)

        assert placed == "n"  # a reference table
        assert seat == 1 and await players.seat_of(ids[1], ash.player_id) == 1
        assert sorted(row.match_id for row in page + rest) == sorted(ids)
        assert await players.finished(ash.player_id) == []
        assert await players.entries(ash.player_id, 10, 0) == []
    finally:
        await pool.close()
