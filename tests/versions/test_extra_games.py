"""HEARTHLOG_EXTRA_GAMES: a server started with tests.tally lists and plays Tally; a module that
cannot be imported stops the start-up with a message naming it."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys

import httpx
import pytest

from service.cli.extra_games import VARIABLE, ExtraGamesError, load_extra_games, module_names
from service.exports import ExportService
from service.matches import MatchService
from service.store.memory import MemoryStore
from tests.api.players import finished_documents, seated_match
from tests.servers import free_port, serving
from tests.versions.tally_service import started


def test_the_variable_is_a_comma_separated_list_of_module_names():
    """Given spaces and empty items, then only the names are read, in order."""
    assert module_names(" tests.tally, ,other.games ") == ["tests.tally", "other.games"]
    assert module_names("") == []


def test_given_importable_modules_then_they_are_imported_and_named():
    """Given tests.tally (already registered in this session), then loading it again is harmless."""
    assert load_extra_games({VARIABLE: "tests.tally"}) == ["tests.tally"]
    assert load_extra_games({}) == []


def test_given_a_module_that_cannot_be_imported_then_the_error_names_it():
    """Given an unknown module after a good one, then the error names the unknown one."""
    with pytest.raises(ExtraGamesError, match="'no_such_games_module'") as refused:
        load_extra_games({VARIABLE: "tests.tally,no_such_games_module"})
    assert VARIABLE in str(refused.value)


def test_given_an_unknown_module_then_the_server_does_not_start_and_says_which():
    """Given HEARTHLOG_EXTRA_GAMES naming no module, when `hearthlog serve` starts, then it
    exits with status 2 and a message naming the module, before touching any database."""
    env = {**os.environ, VARIABLE: "tests.tally, no_such_games_module"}
    done = subprocess.run(
        [sys.executable, "-m", "service.cli.main", "serve", "--port", str(free_port()),
         "--database-url", "postgresql://nobody@127.0.0.1:1/none"],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "'no_such_games_module'" in done.stderr and VARIABLE in done.stderr
    assert "Traceback" not in done.stderr


async def test_a_server_started_with_the_test_game_lists_and_plays_it(database_url):
    """Given a server started with HEARTHLOG_EXTRA_GAMES=tests.tally, then GET /games lists
    Tally at rules version 2, and a whole match played by three clients ends and verifies."""
    with serving(database_url, env={VARIABLE: "tests.tally"}) as server:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            games = (await client.get("/games")).json()["games"]
            tally = (await client.get("/games/tally")).json()
        created, players = await seated_match(server, ["Ana", "Ben", "Cy"], game="tally")
        try:
            finals = await asyncio.wait_for(asyncio.gather(
                *(p.play_randomly(random.Random(i)) for i, p in enumerate(players))), 120)
        finally:
            for player in players:
                await player.close()
        _, verification, export = await finished_documents(server, created["match_id"])
    assert "tally" in [game["id"] for game in games]
    assert (tally["rules_version"], tally["min_seats"], tally["max_seats"]) == ("2", 2, 4)
    board = finals[0]["board"]
    assert board["type"] == "tally_view" and board["phase"] == "over" and board["winners"]
    assert verification["ok"] is True, verification
    assert export["header"]["rules_version"] == "2"


async def test_a_server_started_without_the_variable_carries_only_its_own_games(database_url):
    """Given no HEARTHLOG_EXTRA_GAMES, then the server knows no Tally: 404, and 422 to create."""
    env = {VARIABLE: ""}
    with serving(database_url, env=env) as server:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            listed = [game["id"] for game in (await client.get("/games")).json()["games"]]
            missing = await client.get("/games/tally")
            refused = await client.post("/matches", json={"game": "tally", "seats": 2})
    assert "tally" not in listed and "whiteout-road" in listed
    assert missing.status_code == 404
    assert refused.status_code == 422 and "unknown game 'tally'" in refused.text


async def test_hearthlog_verify_checks_an_extra_games_export_only_when_told_to_carry_it(tmp_path):
    """Given a finished Tally export, when `hearthlog verify` runs with HEARTHLOG_EXTRA_GAMES=
    tests.tally, then it verifies; without it, the verifier refuses the game it does not know."""
    store = MemoryStore()
    match = await started(MatchService(store), seats=2)
    await match.play(MatchService(store), random.Random(6), 100)
    path = tmp_path / "tally.json"
    path.write_bytes(await ExportService(store).export(match.match_id))

    def verify_with(value: str) -> subprocess.CompletedProcess:
        """`hearthlog verify` of the file, with the variable set to ``value``."""
        return subprocess.run([sys.executable, "-m", "service.cli.main", "verify", str(path)],
                              env={**os.environ, VARIABLE: value}, capture_output=True,
                              text=True, timeout=120)

    carried, unknown = verify_with("tests.tally"), verify_with("")
    assert carried.returncode == 0 and "1 of 1 matches verified" in carried.stdout
    assert unknown.returncode == 1 and "unknown game 'tally'" in unknown.stdout + unknown.stderr
