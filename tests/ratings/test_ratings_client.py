"""The rating routes through the Python client openapi-python-client generates from the
committed document (default options), against a real server: the leaderboard, a history and
the export read as the document types them."""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Iterator
from types import ModuleType
from typing import Any

import msgspec
import pytest

from service.ratings import RatingService
from service.store.provisioning import create_pool
from service.store.ratings import RatingStore
from tests.api.test_generated_clients import python_client  # noqa: F401  (a fixture)
from tests.ratings.rated_matches import rated, written
from tests.ratings.test_ratings_store import expected
from tests.servers import Server, copied_database, serving

pytestmark = pytest.mark.slow  # the generator and a real server

GAME = "wick-and-ember"
MATCHES = [rated(n) for n in range(12)]


@pytest.fixture(scope="module")
async def rated_database(postgres_server_url: str, template_database: str,
                         ) -> AsyncIterator[str]:
    """A database holding 12 rated matches, rated before the server starts."""
    async with copied_database(postgres_server_url, template_database, "ratings") as url:
        pool = await create_pool(url, max_size=2)
        try:
            await written(pool, MATCHES)
            ratings = RatingService(RatingStore(pool))
            await ratings.catch_up(await ratings.start_from())
        finally:
            await pool.close()
        yield url


@pytest.fixture(scope="module")
def rated_server(rated_database: str) -> Iterator[Server]:
    """A real server on that database."""
    with serving(rated_database, startup_seconds=60) as base:
        yield base


def call(package: ModuleType, operation: str) -> Any:
    """A generated operation's module."""
    return importlib.import_module(f"hearthlog_client.api.ratings.{operation}")


def test_the_generated_client_reads_the_leaderboard_and_a_history(python_client,  # noqa: F811
                                                                   rated_server) -> None:
    """getLeaderboard and getRatingHistory parse into the document's types, with the values
    the fold gives."""
    client = python_client.Client(base_url=rated_server)
    board = call(python_client, "get_leaderboard").sync(game=GAME, client=client, limit=10)
    updates = expected(MATCHES)
    latest = {u.subject: u for u in updates}
    assert {line.subject: line.mu for line in board.ratings} == {
        s: u.mu_after for s, u in latest.items()}
    history = call(python_client, "get_rating_history").sync(
        game=GAME, subject="bot:careful", client=client)
    assert [u.mu_after for u in history.updates] == [
        u.mu_after for u in updates if u.subject == "bot:careful"]


def test_the_generated_client_fetches_the_export(python_client, rated_server) -> None:  # noqa: F811
    """exportRatings answers the NDJSON text: the header, then the fold's updates."""
    client = python_client.Client(base_url=rated_server)
    answer = call(python_client, "export_ratings").sync_detailed(game=GAME, client=client)
    assert answer.status_code == 200
    lines = answer.content.splitlines()
    assert msgspec.json.decode(lines[0])["model"] == "PlackettLuce"
    assert len(lines) == 1 + len(expected(MATCHES))
