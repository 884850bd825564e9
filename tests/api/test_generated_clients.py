"""Clients generated from openapi/openapi.json by two common generators play whole matches.

openapi-python-client (PyPI, in the `test` extra) and openapi-typescript with openapi-fetch (npm,
installed here into .clients/ts, which git ignores) each build a client from the committed
document without a warning; each client then plays a whole match of every game the server lists,
every seat sending one of its own legal actions in turn, against a real server.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.locks import machine_lock

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "openapi" / "openapi.json"
TYPESCRIPT = ROOT / "tests" / "clients"  # package.json, tsconfig.json, play.ts
INSTALLED = ROOT / ".clients" / "ts"
BIN = Path(sys.executable).parent
OPTIONS = {"wick-and-ember": {"match_length": "short"}}  # the short match where there is one
MAX_MOVES = 5000


def run(command: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """A command's exit code and output, with this virtualenv's tools first on the PATH."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def catalogue(server: str) -> list[dict[str, Any]]:
    """The games the server plays, as GET /games lists them."""
    return httpx.get(f"{server}/games").json()["games"]


def assert_finished(server: str, match_id: str) -> None:
    """The server itself says the match is over, with a result."""
    summary = httpx.get(f"{server}/matches/{match_id}").json()
    assert summary["status"] == "finished" and summary["result"] is not None, summary


@pytest.fixture(scope="module")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The package openapi-python-client generates from the document, imported."""
    out = tmp_path_factory.mktemp("generated") / "hearthlog_client"
    config = out.parent / "config.yaml"  # NDJSON (the bundle, the exports) read as text lines
    config.write_text("content_type_overrides:\n  application/x-ndjson: text/plain\n")
    made = run([str(BIN / "openapi-python-client"), "generate", "--path", str(DOCUMENT),
                "--meta", "none", "--output-path", str(out), "--config", str(config)])
    sys.path.insert(0, str(out.parent))
    try:
        package = importlib.import_module("hearthlog_client")
        package.generation = made  # type: ignore[attr-defined]
        yield package
    finally:
        sys.path.remove(str(out.parent))


@pytest.fixture(scope="module")
def typescript_client() -> tuple[subprocess.CompletedProcess[str], ...]:
    """openapi-typescript's types for the document and play.ts compiled against them by tsc
    (in a folder shared by the test processes: one at a time)."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm and node are not on this machine")
    with machine_lock("typescript-client"):
        return _compiled_typescript_client()


def _compiled_typescript_client() -> tuple[subprocess.CompletedProcess[str], ...]:
    """Install the npm packages when their list changed, generate the types, compile play.ts."""
    INSTALLED.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "tsconfig.json", "play.ts"):
        shutil.copyfile(TYPESCRIPT / name, INSTALLED / name)
    marker = INSTALLED / "node_modules" / ".hearthlog-package.json"
    wanted = (TYPESCRIPT / "package.json").read_text()
    if not marker.exists() or marker.read_text() != wanted:
        installed = run(["npm", "install", "--no-audit", "--no-fund"], cwd=INSTALLED)
        assert installed.returncode == 0, installed.stderr
        marker.write_text(wanted)
    tools = INSTALLED / "node_modules" / ".bin"
    types = run([str(tools / "openapi-typescript"), str(DOCUMENT), "--default-non-nullable",
                 "false", "-o", str(INSTALLED / "schema.d.ts")])
    compiled = run([str(tools / "tsc"), "-p", str(INSTALLED)])
    return types, compiled


def test_openapi_python_client_generates_a_client_without_a_warning(python_client):
    """Given the committed document, when openapi-python-client generates a client, then it
    reports no warning and every operation's answers and both games' views are typed."""
    made = python_client.generation
    assert made.returncode == 0, made.stdout + made.stderr
    assert "warning" not in (made.stdout + made.stderr).lower(), made.stdout
    models = importlib.import_module("hearthlog_client.models")
    for name in ("WickEmberView", "WhiteoutView", "PlayCard", "Commit", "Concede", "LegalAction"):
        assert hasattr(models, name), name


def test_openapi_typescript_generates_types_that_play_ts_compiles_against(typescript_client):
    """Given the committed document, when openapi-typescript generates its types and tsc checks
    play.ts (strict) against them, then neither warns nor fails."""
    types, compiled = typescript_client
    assert types.returncode == 0, types.stdout + types.stderr
    assert "warn" not in (types.stdout + types.stderr).lower(), types.stdout + types.stderr
    assert compiled.returncode == 0 and not compiled.stdout.strip(), compiled.stdout


def test_the_python_client_plays_a_whole_match_of_every_game(python_client, server):
    """Given the generated Python client and a real server, when it plays every game the server
    lists, each seat sending one of its labelled legal actions, then every match finishes."""
    games = catalogue(server)
    assert {"wick-and-ember", "whiteout-road"} <= {game["id"] for game in games}
    for game in games:
        match_id, labels = play_in_python(python_client, server, game)
        assert_finished(server, match_id)
        assert labels and all(isinstance(label, str) and label for label in labels)


def test_the_typescript_client_plays_a_whole_match_of_every_game(typescript_client, server):
    """Given play.ts compiled against openapi-typescript's types, when it plays every game the
    server lists with openapi-fetch, then every match finishes and every action had a label."""
    for game in catalogue(server):
        options = json.dumps(OPTIONS.get(game["id"], {}))
        played = run(["node", str(INSTALLED / "out" / "play.js"), server, game["id"],
                      str(game["min_seats"]), options])
        assert played.returncode == 0, played.stderr
        summary = json.loads(played.stdout)
        assert_finished(server, summary["match_id"])
        assert summary["moves"] == len(summary["labels"]) > 0
        assert all(summary["labels"])


def play_in_python(package: ModuleType, server: str, game: dict[str, Any]) -> tuple[str, list]:
    """One whole match through the generated client: open, seat everyone, start, play."""
    api = importlib.import_module("hearthlog_client.api.matches")
    models = importlib.import_module("hearthlog_client.models")
    calls = {name: importlib.import_module(f"{api.__name__}.{name}") for name in (
        "create_match", "join_match", "start_match", "get_legal_actions", "send_command",
        "get_view")}
    anyone = package.Client(base_url=server)
    options = models.CreateMatchOptions.from_dict(OPTIONS.get(game["id"], {}))
    body = models.CreateMatch(game=game["id"], seats=game["min_seats"], options=options)
    created = calls["create_match"].sync(client=anyone, body=body)
    assert isinstance(created, models.MatchCreatedAnswer), created
    seats = []
    for seat in range(game["min_seats"]):
        joined = calls["join_match"].sync(match_id=created.match_id, client=anyone,
                                          body=models.JoinSeat(name=f"Seat {seat}"))
        assert isinstance(joined, models.SeatAnswer), joined
        seats.append(package.AuthenticatedClient(base_url=server, token=joined.token))
    host = package.AuthenticatedClient(base_url=server, token=created.host_token)
    started = calls["start_match"].sync(match_id=created.match_id, client=host)
    assert isinstance(started, models.MatchSummary), started
    return created.match_id, play_out(calls, models, created.match_id, seats)


def play_out(calls: dict[str, ModuleType], models: ModuleType, match_id: str,
             seats: list[Any]) -> list[str]:
    """Each seat in turn sends one of its legal actions until the match is over; the labels."""
    labels: list[str] = []
    while len(labels) < MAX_MOVES:
        for seat in seats:
            legal = calls["get_legal_actions"].sync(match_id=match_id, client=seat)
            assert isinstance(legal, models.LegalActions), legal
            if legal.actions:
                action = legal.actions[len(labels) % len(legal.actions)]
                body = models.SendCommand(command=action.command, expected_version=legal.version)
                answer = calls["send_command"].sync(match_id=match_id, client=seat, body=body)
                assert isinstance(answer, models.CommandAnswer), answer
                labels.append(action.label)
        view = calls["get_view"].sync(match_id=match_id, client=seats[0])
        if view.status == "finished":
            return labels
    raise AssertionError(f"the match did not end within {MAX_MOVES} moves")
