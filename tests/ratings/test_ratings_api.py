"""The rating routes in process (service/http/api/ratings.py): a leaderboard with players'
names and bots, a subject's history, the NDJSON export, and the refusals; the matches are
written straight into the database and rated as the server's rater rates them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from projections.ratings import RatingUpdate
from service.http.app import create_app
from service.ratings import RatingService
from service.store.ratings import RatingStore
from tests.core.sources import StoppedClock, counted_seeds
from tests.ratings.rated_matches import rated, written
from tests.ratings.test_ratings_store import expected

GAME = "wick-and-ember"
Client = AsyncTestClient[Any]


@pytest.fixture
async def bare_client(database_url: str) -> AsyncIterator[Client]:
    """A client of the app on an empty database."""
    app = create_app(database_url, seeds=counted_seeds("ratings"), clock=StoppedClock())
    async with AsyncTestClient(app) as client:
        yield client


@pytest.fixture
async def rated_client(database_url: str, pool: Any) -> AsyncIterator[tuple[Client, list]]:
    """A client of the app, two players (Ada, Bo) and 15 rated matches, every one rated."""
    app = create_app(database_url, seeds=counted_seeds("ratings"), clock=StoppedClock())
    async with AsyncTestClient(app) as client:
        ids = []
        for name in ("Ada", "Bo"):
            made = await client.post("/players", json={"name": name})
            assert made.status_code == 201, made.text
            ids.append(made.json()["player_id"])
        matches = [rated(n, players=tuple(ids) if n % 2 else ()) for n in range(15)]
        await written(pool, matches)
        ratings = RatingService(RatingStore(pool))  # as the server's rater does, on its loop
        await ratings.catch_up(await ratings.start_from())
        yield client, matches


async def test_the_leaderboard_names_players_and_bots(rated_client) -> None:
    """Given players and bots rated, the leaderboard lists each once, best ordinal first, with
    a player's name, and provisional below ten games."""
    client, matches = rated_client
    answer = await client.get(f"/ratings/{GAME}", params={"limit": 10})
    assert answer.status_code == 200, answer.text
    board = answer.json()
    assert board["subjects"] == len(board["ratings"]) == 4
    ordinals = [line["ordinal"] for line in board["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    names = {line["subject"]: line["name"] for line in board["ratings"]}
    assert sorted(n for n in names.values() if n) == ["Ada", "Bo"]
    assert names["bot:random"] is None
    games = {u.subject: u.games for u in expected(matches)}
    assert {line["subject"]: (line["games"], line["provisional"]) for line in board["ratings"]} \
        == {subject: (n, n < 10) for subject, n in games.items()}


async def test_a_subjects_history_pages_its_updates(rated_client) -> None:
    """A bot's history: its updates oldest first, two a page, next_offset to the rest."""
    client, matches = rated_client
    mine = [msgspec.to_builtins(u) for u in expected(matches) if u.subject == "bot:careful"]
    first = (await client.get(f"/ratings/{GAME}/subjects/bot:careful",
                              params={"limit": 2})).json()
    assert first["updates"] == mine[:2] and first["next_offset"] == 2
    assert first["current"]["mu"] == mine[-1]["mu_after"]


async def test_the_export_is_the_servers_updates_as_ndjson(rated_client) -> None:
    """The export's lines: the header, then each update as the fold makes it."""
    client, matches = rated_client
    answer = await client.get(f"/ratings/{GAME}/export")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    lines = answer.content.splitlines()
    assert msgspec.json.decode(lines[0])["format"] == "hearthlog-ratings"
    assert [msgspec.json.decode(line, type=RatingUpdate) for line in lines[1:]] == expected(matches)


@pytest.mark.parametrize(("path", "status", "named"), [
    ("/ratings/chess", 404, "chess"),
    ("/ratings/chess/export", 404, "chess"),
    (f"/ratings/{GAME}/subjects/bot:nobody", 404, "bot:nobody"),
    (f"/ratings/{GAME}?limit=0", 400, "limit"),
])
async def test_a_bad_request_is_refused_naming_it(bare_client, path, status, named) -> None:
    """An unknown game or subject is a 404, a limit out of range a 400, each naming it."""
    answer = await bare_client.get(path)
    assert answer.status_code == status
    assert named in answer.text
