"""An HTTP smoke match per game: a real server, every seat a bot, played to the end and verified.

One `hearthlog serve` process for every game the server plays (the latest rules version of each,
as a new match gets): create a match of the fewest seats, give every seat to the random bot,
start it, wait (bounded) until the bots have finished it, then fetch its export and verify it
offline.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from domain.core.decider import Rulebook
from domain.registry import GAMES
from projections.export import decode_export
from projections.verify import verify
from tests.games.conformance import in_domain
from tests.servers import Server, copied_database, serving

FAST = {"HEARTHLOG_BOT_DELAY": "0.005", "HEARTHLOG_SWEEP_SECONDS": "0.2"}
STARTUP_SECONDS = 60
FINISH_SECONDS = 120


def served_by_the_server() -> list[Rulebook]:
    """The latest rulebook of each game the server process carries (domain.games)."""
    import domain.games  # noqa: F401  (the games `hearthlog serve` registers)

    return sorted((b for b in GAMES.values() if in_domain(b)), key=lambda book: book.id)


@pytest.fixture(scope="module")
async def smoke_database(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """A migrated database for the smoke matches."""
    async with copied_database(postgres_server_url, template_database, "smoke") as url:
        yield url


@pytest.fixture(scope="module")
def server(smoke_database: str) -> Iterator[Server]:
    """One fast server for every game's smoke match."""
    with serving(smoke_database, startup_seconds=STARTUP_SECONDS, env=FAST) as base:
        yield base


def test_the_server_plays_every_game_of_the_domain(server: Server):
    listed = {game["id"]: game["rules_version"]
              for game in httpx.get(f"{server}/games").json()["games"]}
    assert {book.id: book.rules_version for book in served_by_the_server()}.items() <= listed.items()


@pytest.mark.parametrize("game", served_by_the_server(), ids=lambda book: book.id)
def test_a_match_of_bots_over_http_finishes_and_its_export_verifies(server: Server, game):
    with httpx.Client(base_url=server, timeout=10) as client:
        match_id = bots_only_match(client, game)

        status = wait_finished(client, match_id)
        document = decode_export(client.get(f"/matches/{match_id}/export").content)

    assert status == "finished"
    report = verify(document)
    assert report.ok, report.problem
    assert (document.header.game, document.header.rules_version) == (game.id, game.rules_version)


def bots_only_match(client: httpx.Client, game: Rulebook) -> str:
    """A started match of the game's fewest seats, each played by the random bot."""
    created = client.post("/matches", json={"game": game.id, "seats": game.min_seats})
    assert created.status_code == 201, created.text
    match_id, host = created.json()["match_id"], created.json()["host_token"]
    for _ in range(game.min_seats):
        joined = client.post(f"/matches/{match_id}/seats", json={"bot": "random"})
        assert joined.status_code == 201, joined.text
    started = client.post(f"/matches/{match_id}/start",
                          headers={"authorization": f"Bearer {host}"})
    assert started.status_code in (200, 201), started.text
    return match_id


def wait_finished(client: httpx.Client, match_id: str) -> str:
    """The match's status once finished, or the last one seen when time ran out."""
    deadline = time.monotonic() + FINISH_SECONDS
    status = "playing"
    while time.monotonic() < deadline:
        status = client.get(f"/matches/{match_id}").json()["status"]
        if status == "finished":
            break
        time.sleep(0.2)
    return status
