"""Rated matches played through the API by players (in process): the server's own rater rates
each as it finishes, the players' ratings move by who won, and the ratings export recomputes
from the players' match exports offline."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from service.cli.verifying import verify
from service.http.app import create_app
from tests.core.sources import StoppedClock, counted_seeds

GAME = "wick-and-ember"
Client = AsyncTestClient[Any]
GUARD_SECONDS = 60  # a guard against a rater that never rates, not a measure


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[Client]:
    """A client of the whole app (its loops running) on this test's database."""
    app = create_app(database_url, seeds=counted_seeds("rated play"), clock=StoppedClock())
    async with AsyncTestClient(app) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    """The Authorization header of a token."""
    return {"Authorization": f"Bearer {token}"}


async def finished(client: Client, seated: list[dict[str, Any]], loser: dict[str, Any],
                   rated: bool = True) -> str:
    """A two-seat match of two players (rated unless said), ended by the loser's concession:
    its id."""
    made = await client.post("/matches", json={"game": GAME, "seats": 2, "rated": rated})
    assert made.status_code == 201, made.text
    match = made.json()
    for someone in seated:
        joined = await client.post(f"/matches/{match['match_id']}/seats", json={},
                                   headers=bearer(someone["token"]))
        assert joined.status_code == 201, joined.text
    assert (await client.post(f"/matches/{match['match_id']}/start",
                              headers=bearer(match["host_token"]))).status_code == 200
    assert (await client.post(f"/matches/{match['match_id']}/concede",
                              headers=bearer(loser["token"]))).status_code == 200
    return str(match["match_id"])


async def rated_count(client: Client, subject: str) -> int:
    """How many rated matches of the game a subject has (0 before its first)."""
    answer = await client.get(f"/ratings/{GAME}/subjects/{subject}")
    return int(answer.json()["current"]["games"]) if answer.status_code == 200 else 0


async def until_rated(client: Client, subject: str, games: int) -> None:
    """Ask until the server has rated ``games`` matches of the subject (within the guard)."""
    for _ in range(GUARD_SECONDS * 10):
        if await rated_count(client, subject) >= games:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{subject} was not rated {games} times within {GUARD_SECONDS} s")


async def test_the_server_rates_rated_matches_as_they_finish(client, tmp_path: Path,
                                                              capsys) -> None:
    """Given Ash and Bryn, when Ash concedes a casual match, then Bryn twice and Ash once in
    rated ones, then the server rates the three rated ones (told by the announcement of their
    finishing append), Ash ahead; and the ratings export verifies offline against Ash's
    exported matches, the casual one among them."""
    ash, bryn = [(await client.post("/players", json={"name": n})).json()
                 for n in ("Ash", "Bryn")]
    await finished(client, [ash, bryn], ash, rated=False)
    for loser in (bryn, ash, bryn):
        await finished(client, [ash, bryn], loser)
    await until_rated(client, ash["player_id"], 3)
    board = (await client.get(f"/ratings/{GAME}")).json()
    assert [line["name"] for line in board["ratings"]] == ["Ash", "Bryn"]
    assert [line["games"] for line in board["ratings"]] == [3, 3]
    ratings, matches = tmp_path / "ratings.ndjson", tmp_path / "ash.ndjson"
    ratings.write_bytes((await client.get(f"/ratings/{GAME}/export")).content)
    matches.write_bytes((await client.get(f"/players/{ash['player_id']}/export")).content)
    code = verify(argparse.Namespace(file=[str(matches)], ratings=str(ratings), jobs=1))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "6 updates of 3 rated matches" in out
