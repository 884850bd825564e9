"""Ratings on a Citus cluster placed as `hearthlog distribute` places it: the rating tables a
group of their own distributed by game, and every statement of the rater and the reads
accepted there, equal to the fold."""

from __future__ import annotations

import asyncio

import pytest

from service.ratings import RatingService
from service.store.provisioning import create_pool
from service.store.ratings import RatingStore
from tests.ratings.rated_matches import rated, written
from tests.ratings.test_ratings_store import expected

pytestmark = pytest.mark.slow  # a Citus cluster

GAME = "wick-and-ember"


async def test_the_ratings_run_on_a_citus_cluster(citus_database: str) -> None:
    """Given 20 rated matches on the cluster, when two raters catch up at once, then the
    updates, the leaderboard and a history are the fold's, read from one game's shard."""
    pool = await create_pool(citus_database)
    try:
        matches = [rated(n, players=("0a8f3c1e-1b2d-4c5e-8f70-00000000000a",)
                         if n % 2 else ()) for n in range(20)]
        await written(pool, matches)
        one, two = RatingService(RatingStore(pool)), RatingService(RatingStore(pool))
        await asyncio.gather(one.catch_up(await one.start_from()),
                             two.catch_up(await two.start_from()))
        placed = await pool.fetch(
            "SELECT logicalrelid::regclass::text AS t, column_to_column_name(logicalrelid, "
            "partkey) AS key FROM pg_dist_partition WHERE logicalrelid::regclass::text "
            "LIKE 'rat%'")
        stored = [u async for batch in one.store.updates(GAME) for u in batch]
        board = await one.leaderboard(GAME, 10, 0)
        history = await one.history(GAME, "bot:careful", 100, 0)
        current = await one.current(GAME, ["bot:random"])

        assert {row["t"]: row["key"] for row in placed} == {
            "rated_matches": "game", "rating_updates": "game", "rating_standings": "game"}
        assert stored == expected(matches)
        latest = {u.subject: u for u in stored}
        assert {s.subject: s.mu for s in board.ratings} == {
            s: u.mu_after for s, u in latest.items()}
        assert history.updates == [u for u in stored if u.subject == "bot:careful"]
        assert current["bot:random"] == latest["bot:random"].after
    finally:
        await pool.close()
