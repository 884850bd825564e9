"""Clients generated from openapi/openapi.json by two common generators play whole matches.

openapi-python-client (PyPI, in the `test` extra) and openapi-typescript with openapi-fetch (npm,
installed here into .clients/ts, which git ignores) each build a client from the committed
document with their DEFAULT options (no configuration file, no flag) without a warning, with
every operation, and tsc --strict compiles play.ts against the TypeScript types; each client
then plays a whole match of every game the server lists against a real server: every seat
sending one of its own legal actions in turn, and every seat following its own stream (Server-
Sent Events, read as docs/api.md's "Following a stream" shows) and acting on what it offers.
The npm install and the generators take a while: these tests are slow.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.locks import machine_lock

pytestmark = pytest.mark.slow  # npm install, two generators, tsc, whole matches over HTTP

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "openapi" / "openapi.json"
TYPESCRIPT = ROOT / "tests" / "clients"  # package.json, tsconfig.json, play.ts
INSTALLED = ROOT / ".clients" / "ts"
BIN = Path(sys.executable).parent
OPTIONS = {"wick-and-ember": {"match_length": "short"}}  # the short match where there is one
MAX_MOVES = 5000
STREAM_SECONDS = 300  # a guard against a stream that never says finished, not a measure


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


def operation_ids() -> list[str]:
    """Every operation of the committed document, by its operationId."""
    document = json.loads(DOCUMENT.read_text())
    return [operation["operationId"] for item in document["paths"].values()
            for operation in item.values() if isinstance(operation, dict)]


def commands_of_each_game() -> dict[str, set[str]]:
    """Each game's command types, by component name, as its LegalActions variant offers them
    (the variant that the `game` discriminator names, whose actions hold that game's union)."""
    schemas = json.loads(DOCUMENT.read_text())["components"]["schemas"]
    named = {}
    for game, ref in schemas["LegalActions"]["discriminator"]["mapping"].items():
        variant = schemas[ref.split("/")[-1]]
        action = schemas[variant["properties"]["actions"]["items"]["$ref"].split("/")[-1]]
        union = schemas[action["properties"]["command"]["$ref"].split("/")[-1]]
        named[game] = {choice["$ref"].split("/")[-1] for choice in union["oneOf"]}
    return named


def stream_updates_by_game(models: ModuleType) -> dict[str, Any]:
    """The generated StreamUpdate class of each game, as the document's discriminator maps it."""
    schemas = json.loads(DOCUMENT.read_text())["components"]["schemas"]
    mapping = schemas["StreamUpdate"]["discriminator"]["mapping"]
    return {game: getattr(models, ref.split("/")[-1]) for game, ref in mapping.items()}


def snake(name: str) -> str:
    """An operationId as openapi-python-client names its module: exportMatch -> export_match."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


@pytest.fixture(scope="module")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The package openapi-python-client generates from the document with its default options
    (only where to write it, and no pyproject around it), imported."""
    out = tmp_path_factory.mktemp("generated") / "hearthlog_client"
    made = run([str(BIN / "openapi-python-client"), "generate", "--path", str(DOCUMENT),
                "--meta", "none", "--output-path", str(out)])
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
    types = run([str(tools / "openapi-typescript"), str(DOCUMENT), "-o",
                 str(INSTALLED / "schema.d.ts")])
    compiled = run([str(tools / "tsc"), "-p", str(INSTALLED)])
    return types, compiled


def test_openapi_python_client_generates_every_operation_without_a_warning(python_client):
    """Given the committed document, when openapi-python-client generates a client with its
    default options, then it reports no warning, every operation has its module, and every
    game's views and commands and the stream's update are typed."""
    made = python_client.generation
    assert made.returncode == 0, made.stdout + made.stderr
    assert "warning" not in (made.stdout + made.stderr).lower(), made.stdout + made.stderr
    api = Path(python_client.__file__).parent / "api"
    modules = {path.stem for path in api.glob("*/*.py")}
    assert [o for o in operation_ids() if snake(o) not in modules] == []
    models = importlib.import_module("hearthlog_client.models")
    for name in ("WickEmberView", "WhiteoutView", "PlayCard", "Commit", "Concede", "Pass",
                 "PassRitual", "EmberLegalActions", "DeathwickStreamUpdate", "MatchExport"):
        assert hasattr(models, name), name


def test_openapi_typescript_generates_types_that_play_ts_compiles_against(typescript_client):
    """Given the committed document, when openapi-typescript generates its types with its
    default options and tsc checks play.ts (strict) against them, then neither warns nor fails,
    and every operation is typed."""
    types, compiled = typescript_client
    assert types.returncode == 0, types.stdout + types.stderr
    assert "warn" not in (types.stdout + types.stderr).lower(), types.stdout + types.stderr
    assert compiled.returncode == 0 and not compiled.stdout.strip(), compiled.stdout
    typed = (INSTALLED / "schema.d.ts").read_text()
    assert [o for o in operation_ids() if f"    {o}: {{" not in typed] == []


def test_the_python_client_plays_a_whole_match_of_every_game(python_client, server):
    """Given the generated Python client and a real server, when it plays every game the server
    lists, each seat sending one of its labelled legal actions, then every match finishes, and
    every command offered was read as one of its own game's types (Ember's pass as Ember's
    Pass, never Deathwick's PassRitual, though both are {"type": "pass"})."""
    games = catalogue(server)
    assert {"wick-and-ember", "whiteout-road", "ember", "deathwick"} <= {g["id"] for g in games}
    own = commands_of_each_game()
    for game in games:
        match_id, played = play_in_python(python_client, server, game)
        assert_finished(server, match_id)
        assert played and all(isinstance(label, str) and label for label, _ in played)
        assert {kind for _, kind in played} <= own[game["id"]], game["id"]  # its own types


@pytest.mark.parametrize("mode", ["turns", "stream", "players"])
def test_the_typescript_client_plays_a_whole_match_of_every_game(typescript_client, server, mode):
    """Given play.ts compiled against openapi-typescript's types, when it plays every game the
    server lists with openapi-fetch, each seat in turn, each seat following its own stream, or
    each seat taken by a new player and played in turns with the player's own token, then every
    match finishes and every action had a label."""
    for game in catalogue(server):
        options = json.dumps(OPTIONS.get(game["id"], {}))
        played = run(["node", str(INSTALLED / "out" / "play.js"), server, game["id"],
                      str(game["min_seats"]), options, mode])
        assert played.returncode == 0, played.stderr
        summary = json.loads(played.stdout)
        assert_finished(server, summary["match_id"])
        assert summary["moves"] == len(summary["labels"]) > 0
        assert all(summary["labels"])


def test_the_python_client_plays_a_whole_match_of_every_game_following_the_streams(
    python_client, server
):
    """Given the generated Python client, when each seat of every game follows its own stream
    (docs/api.md's way: the client's own httpx client, each event's data a StreamUpdate) and
    sends one of the actions each update offers it, then every match finishes."""
    own = commands_of_each_game()
    for game in catalogue(server):
        match_id, seats = open_in_python(python_client, server, game)
        played: list[tuple[str, str]] = []
        with ThreadPoolExecutor(len(seats)) as pool:
            followers = [pool.submit(follow_and_play, python_client, s, match_id, played)
                         for s in seats]
            for follower in followers:
                follower.result(timeout=STREAM_SECONDS)
        assert_finished(server, match_id)
        assert played and all(label for label, _ in played)
        assert {kind for _, kind in played} <= own[game["id"]], game["id"]


def calls_of(package: ModuleType) -> dict[str, ModuleType]:
    """The generated modules of the match operations this test uses."""
    api = importlib.import_module("hearthlog_client.api.matches")
    return {name: importlib.import_module(f"{api.__name__}.{name}") for name in (
        "create_match", "join_match", "start_match", "get_legal_actions", "send_command",
        "get_view")}


def play_in_python(package: ModuleType, server: str, game: dict[str, Any]) -> tuple[str, list]:
    """One whole match through the generated client: open, seat everyone, start, play."""
    match_id, seats = open_in_python(package, server, game)
    models = importlib.import_module("hearthlog_client.models")
    return match_id, play_out(calls_of(package), models, match_id, seats)


def open_in_python(package: ModuleType, server: str, game: dict[str, Any]) -> tuple[str, list]:
    """Open a match of the game, seat everyone and start it; its id and the seats' clients."""
    calls, models = calls_of(package), importlib.import_module("hearthlog_client.models")
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
    return created.match_id, seats


def play_out(calls: dict[str, ModuleType], models: ModuleType, match_id: str,
             seats: list[Any]) -> list[tuple[str, str]]:
    """Each seat in turn sends one of its legal actions until the match is over; each action's
    label and the generated type its command was read as."""
    labels: list[tuple[str, str]] = []
    while len(labels) < MAX_MOVES:
        for seat in seats:
            legal = calls["get_legal_actions"].sync(match_id=match_id, client=seat)
            assert type(legal).__name__.endswith("LegalActions"), legal
            if legal.actions:
                action = legal.actions[len(labels) % len(legal.actions)]
                body = models.SendCommand(command=action.command, expected_version=legal.version)
                answer = calls["send_command"].sync(match_id=match_id, client=seat, body=body)
                assert type(answer).__name__.endswith("CommandAnswer"), answer
                labels.append((action.label, type(action.command).__name__))
        view = calls["get_view"].sync(match_id=match_id, client=seats[0])
        if view.status == "finished":
            return labels
    raise AssertionError(f"the match did not end within {MAX_MOVES} moves")


def updates(client: Any, match_id: str) -> Iterator[Any]:
    """Follow a seat's stream as docs/api.md shows: the generated client's own httpx client
    reads the Server-Sent Events as they come, and each event's data is a StreamUpdate."""
    models = importlib.import_module("hearthlog_client.models")
    by_game = stream_updates_by_game(models)  # the document's variant for each game
    http = client.get_httpx_client()
    with http.stream("GET", f"/matches/{match_id}/stream", timeout=None) as answer:
        answer.raise_for_status()
        data: list[str] = []
        for line in answer.iter_lines():
            if line.startswith("data:"):
                data.append(line.removeprefix("data:").removeprefix(" "))
            elif not line and data:  # a blank line ends an event; ":" lines are heartbeats
                update = json.loads("\n".join(data))
                yield by_game[update["game"]].from_dict(update)
                data = []


def follow_and_play(package: ModuleType, seat: Any, match_id: str,
                    played: list[tuple[str, str]]) -> None:
    """One seat: on each update that offers it actions, send one at that version; stop once
    its view says the match is finished (a 409 means the match moved on: the next update)."""
    calls, models = calls_of(package), importlib.import_module("hearthlog_client.models")
    for update in updates(seat, match_id):
        if update.view.status == "finished":
            return
        if not update.actions:
            continue
        action = update.actions[update.version * 7 % len(update.actions)]
        body = models.SendCommand(command=action.command, expected_version=update.version)
        answer = calls["send_command"].sync(match_id=match_id, client=seat, body=body)
        if type(answer).__name__.endswith("CommandAnswer"):
            played.append((action.label, type(action.command).__name__))
        else:
            assert answer.status_code == 409, answer
        assert len(played) < MAX_MOVES, f"the match did not end within {MAX_MOVES} moves"
    raise AssertionError("the stream ended before the match did")
