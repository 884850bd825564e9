"""The tournament routes' own per-client limits (issue #34 defect 5: one client's 400-bot
tournament opened 200 matches in one request, and tournaments were uncapped): tournaments
created, entrants registered and tables opened, each per client per hour, 429 past it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.api.conftest import STARTUP_SECONDS
from tests.api.tournament_support import Organizer
from tests.servers import Server, serving

LIMITS = {"HEARTHLOG_TOURNAMENTS_PER_HOUR": "2", "HEARTHLOG_ENTRANTS_PER_HOUR": "5",
          "HEARTHLOG_TABLES_PER_HOUR": "2"}


@pytest.fixture(scope="module")
def limited(server_database: str) -> Iterator[Server]:
    """A server with small tournament limits, fast bots and sweeps (tests.live's FAST)."""
    from tests.live.conftest import FAST  # it imports tests.api.conftest: not at the top

    with serving(server_database, startup_seconds=STARTUP_SECONDS,
                 env={**FAST, **LIMITS}) as base:
        yield base


async def test_tournaments_entrants_and_tables_past_their_limits_are_429(limited):
    """Given limits of 2 tournaments, 5 entrants and 2 tables an hour, when one client goes
    past each, then 429 names the limit's variable and nothing more is made."""
    first, second, third = Organizer(limited), Organizer(limited), Organizer(limited)
    await first.create(options={"match_length": "short"})
    await second.create(format="round-robin")
    over = await third.client.post("/tournaments", json={
        "name": "Third", "game": "wick-and-ember", "table_size": 2, "format": "swiss"})
    assert over.status_code == 429 and "HEARTHLOG_TOURNAMENTS_PER_HOUR" in over.text
    assert over.headers["retry-after"]
    for n in range(4):
        await first.register(f"Bot {n}", bot="random")
    await second.register("Ash", bot="random")
    refused = await second.client.post(f"/tournaments/{second.id}/players",
                                       json={"name": "Bryn", "bot": "random"})
    assert refused.status_code == 429 and "HEARTHLOG_ENTRANTS_PER_HOUR" in refused.text
    assert len((await second.get()).json()["entrants"]) == 1
    await first.close_registration()
    assert len((await first.start_round())["tables"]) == 2
    await first.round_finished(1)
    again = await first.post("/rounds")
    assert again.status_code == 429 and "HEARTHLOG_TABLES_PER_HOUR" in again.text
    assert (await first.get()).json()["round"] == 1
    for organizer in (first, second, third):
        await organizer.close()
