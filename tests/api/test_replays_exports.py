"""Replays, exports and verification on a real server: past views equal served views, finished
matches export and verify, and no seed shows anywhere while a match runs."""

from __future__ import annotations

import random
import secrets
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import asyncpg
import httpx
import msgspec
import pytest

from projections.export import decode_export
from projections.verify import verify
from service.store.provisioning import create_pool
from tests.api.conftest import STARTUP_SECONDS
from tests.api.players import Player, open_match, seated_match
from tests.replay.random_matches import insert_finished, play
from tests.servers import serving

HEARTHLOG = [sys.executable, "-m", "service.cli.main"]


@pytest.fixture(scope="module")
def logged(server_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A real server whose output goes to a file the tests can search: (base URL, log path)."""
    log = tmp_path_factory.mktemp("server") / "server.log"
    with serving(server_database, output=log, startup_seconds=STARTUP_SECONDS) as base:
        yield base, log


async def stored_seed(database_url: str, match_id: str) -> bytes:
    """The secret server seed, read straight from the database."""
    conn = await asyncpg.connect(database_url)
    try:
        return await conn.fetchval("SELECT server_seed FROM matches WHERE match_id = $1", match_id)
    finally:
        await conn.close()


async def play_some(players: list[Player], chooser: random.Random, limit: int) -> list[Any]:
    """Random legal commands, seat by seat, until the match ends or ``limit`` are played;
    every answer as (seat, version, view served)."""
    served = []
    while len(served) < limit:
        moved = False
        for player in players:
            actions = [a["command"] for a in (await player.get("/legal-actions"))["actions"]]
            if actions:
                answer = await player.send(chooser.choice(actions))
                assert answer.status_code == 200, answer.text
                body = answer.json()
                served.append((player.seat, body["version"], body["view"]))
                moved = True
        if not moved:
            break
    return served


def seeds_for(names: list[str]) -> list[str]:
    """Distinctive client seeds, one per seat."""
    return [f"{name.lower()}-dice-{secrets.token_hex(8)}" for name in names]


async def test_a_finished_match_replays_every_served_view_exports_and_verifies(
    logged, server_database
):
    """Given a match played to its end over HTTP, then each view a command answered with equals
    replay/{version}?seat=N (open to all now), and its export verifies clean."""
    base, _ = logged
    names = ["Ash", "Bryn", "Cole"]
    created = await open_match(base, len(names), options={"ember_target": 2})
    players = [Player(base, created["match_id"], name) for name in names]
    served = []
    async with httpx.AsyncClient(base_url=base) as anyone:
        for player, seed in zip(players, seeds_for(names), strict=True):
            await player.join(client_seed=seed)
        await anyone.post(
            f"/matches/{created['match_id']}/start",
            headers={"authorization": f"Bearer {created['host_token']}"},
        )
        served = await play_some(players, random.Random(3), limit=10_000)
        match = f"/matches/{created['match_id']}"
        for seat, version, view in served:
            past = await anyone.get(f"{match}/replay/{version}", params={"seat": seat})
            assert past.status_code == 200 and past.json() == view, (seat, version)
        exported = await anyone.get(f"{match}/export")
        replay = (await anyone.get(f"{match}/replay")).json()
        report = (await anyone.get(f"{match}/verification")).json()
    for player in players:
        await player.close()
    document = decode_export(exported.content)
    seed = await stored_seed(server_database, created["match_id"])
    assert document.header.server_seed == seed.hex() and served
    assert verify(document).ok and report["ok"] and report["seed_published"]
    assert report["head_hash"] == document.header.head_hash
    assert len(replay["steps"]) == document.header.version == served[-1][1]
    assert replay["steps"][-1]["state"]["game"]["seats"][0]["hand"] is not None


def test_the_cli_exports_from_the_server_and_verifies_offline(logged, tmp_path):
    """Given the server's finished matches, when `hearthlog export --url` writes them, then
    `hearthlog verify` passes every one and the CSV has a row per seat."""
    base, _ = logged
    out, table = tmp_path / "all.ndjson", tmp_path / "all.csv"
    for path, kind in ((out, "ndjson"), (table, "csv")):
        subprocess.run(
            [*HEARTHLOG, "export", "--url", base, "--format", kind, "--out", str(path)],
            check=True,
            capture_output=True,
            timeout=120,
        )

    checked = subprocess.run(
        [*HEARTHLOG, "verify", str(out)], capture_output=True, text=True, timeout=120
    )

    count = len(out.read_bytes().splitlines())
    assert checked.returncode == 0, checked.stdout
    assert f"{count} of {count} matches verified" in checked.stdout and count >= 1
    assert table.read_text().splitlines()[0].startswith("match_id,game,tournament,seat,name")


class Recorder:
    """Every response body of a running match, to search for seeds afterwards."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def get(
        self, client: httpx.AsyncClient, path: str, expect: int = 200, **params: Any
    ) -> httpx.Response:
        """GET, record the answer, check its status."""
        answer = await client.get(path, params=params)
        self.texts.append(answer.text)
        assert answer.status_code == expect, (path, params, answer.text)
        return answer


async def test_no_seed_appears_anywhere_while_the_match_runs(logged, server_database):
    """Given a match part-played with client seeds, then no view, log, summary, listing, error,
    replay, export, verification or server log line shows the server seed or a client seed."""
    base, log = logged
    names, seen = ["Dara", "Edda"], Recorder()
    created = await open_match(base, len(names))
    players = [Player(base, created["match_id"], name) for name in names]
    secrets_given = seeds_for(names)
    for player, seed in zip(players, secrets_given, strict=True):
        await player.join(client_seed=seed)
    host = {"authorization": f"Bearer {created['host_token']}"}
    async with httpx.AsyncClient(base_url=base) as anyone:
        started = await anyone.post(f"/matches/{created['match_id']}/start", headers=host)
        seen.texts.append(started.text)
        served = await play_some(players, random.Random(5), limit=4)
        seen.texts += [msgspec.json.encode(view).decode() for _, _, view in served]
        await visit_everything(seen, anyone, players, created, host)
    for player in players:
        await player.close()
    seed = (await stored_seed(server_database, created["match_id"])).hex()
    everything = "\n".join([*seen.texts, log.read_text(errors="replace")])
    assert "playing" in everything and len(seen.texts) > 40
    for secret in [seed, *secrets_given]:
        assert secret not in everything


async def visit_everything(
    seen: Recorder, anyone: httpx.AsyncClient, players: list[Player], created: dict, host: dict
) -> None:
    """Ask every route about the running match, as each seat, the host and a spectator."""
    match = f"/matches/{created['match_id']}"
    version = (await seen.get(anyone, match)).json()["version"]
    await seen.get(anyone, "/matches", status="playing")
    for client in [anyone, *(p.client for p in players)]:
        for route in ("/view", "/log", "/verification"):
            await seen.get(client, match + route)
    for player in players:
        await seen.get(player.client, match + "/legal-actions")
    await seen.get(anyone, match + "/replay", 409)
    await seen.get(anyone, match + "/export", 409)
    for number in range(1, version + 1):
        await seen.get(anyone, f"{match}/replay/{number}")
        await seen.get(players[0].client, f"{match}/replay/{number}", seat=0)
    await seen.get(players[0].client, f"{match}/replay/{version}", 403, seat=1)
    await seen.get(anyone, f"{match}/replay/{version}", 401, seat=0)
    anyone.headers.update(host)
    await seen.get(anyone, f"{match}/replay/{version}", 403, seat=0)
    del anyone.headers["authorization"]
    await seen.get(anyone, f"{match}/replay/{version + 1}", 404)
    await seen.get(anyone, f"{match}/replay/{version}", 404, seat=7)
    for kind in ("ndjson", "csv"):
        exported = await seen.get(anyone, "/exports/matches", format=kind)
        assert created["match_id"] not in exported.text
    bad = await players[0].send({"type": "play", "card": "no-such-card"})
    seen.texts.append(bad.text)


async def test_a_running_match_verifies_its_chain_without_showing_a_hash(logged):
    """Given a running match, then /verification checks the hash chain only and says the seed is
    not yet published; its past views are refused for other seats and out of range."""
    base, _ = logged
    created, players = await seated_match(base, ["Fenn", "Gale"])
    async with httpx.AsyncClient(base_url=base) as anyone:
        match = f"/matches/{created['match_id']}"
        report = (await anyone.get(f"{match}/verification")).json()
        out_of_range = await anyone.get(f"{match}/replay/0")
        refused = await players[0].client.get(f"{match}/replay/1", params={"seat": 1})
    for player in players:
        await player.close()
    assert report["ok"] and report["checked"] == ["chain"] and not report["seed_published"]
    assert report["head_hash"] is None and report["match_seed"] is None
    assert out_of_range.status_code == 404 and "there is no version 0" in out_of_range.text
    assert refused.status_code == 403 and "only its own view" in refused.text


async def test_hundreds_of_finished_matches_stream_as_ndjson_and_csv_and_verify(
    logged, server_database
):
    """Given 200 finished matches written into the database, then the NDJSON export streams all
    of them, each verifying clean, the CSV has one row per seat, and the filters apply."""
    base, _ = logged
    matches = [play(index, tournament="bulk") for index in range(200)]
    pool = await create_pool(server_database, min_size=1, max_size=1)
    async with pool.acquire() as conn:
        await insert_finished(conn, matches)
    await pool.close()
    async with httpx.AsyncClient(base_url=base, timeout=60) as anyone:
        ndjson = await anyone.get("/exports/matches", params={"tournament": "bulk"})
        table = await anyone.get("/exports/matches", params={"tournament": "bulk", "format": "csv"})
        window = await anyone.get(
            "/exports/matches",
            params={
                "tournament": "bulk",
                "finished_after": matches[10].finished_at.isoformat(),
                "finished_before": matches[20].finished_at.isoformat(),
            },
        )
    documents = [decode_export(line) for line in ndjson.content.splitlines()]
    assert ndjson.headers["x-match-count"] == "200"
    assert ndjson.headers["content-type"].startswith("application/x-ndjson")
    assert [d.header.match_id for d in documents] == [m.match_id for m in matches]
    assert all(verify(document).ok for document in documents)
    rows = table.text.splitlines()
    assert len(rows) == 1 + sum(d.header.seats for d in documents)
    assert [decode_export(line).header.match_id for line in window.content.splitlines()] == [
        m.match_id for m in matches[10:20]
    ]


async def test_while_running_each_seat_replays_its_own_served_views_deadline_included(logged):
    """Given a running match with a turn clock, then every view a command answered with equals
    that seat's replay/{version}?seat=N asked with its own token, the clock's deadline too."""
    base, _ = logged
    created, players = await seated_match(base, ["Hale", "Iris"], turn_seconds=3600)
    served = await play_some(players, random.Random(8), limit=6)
    by_seat = {player.seat: player for player in players}
    pasts = [
        (
            await by_seat[seat].client.get(
                f"/matches/{created['match_id']}/replay/{version}", params={"seat": seat}
            )
        ).json()
        for seat, version, _ in served
    ]
    for player in players:
        await player.close()
    assert served and [view for _, _, view in served] == pasts
    assert all(view["deadline"] for _, _, view in served if view["status"] == "playing")
