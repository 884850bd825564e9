"""Everything through the ordinary server on a Citus cluster (tests/distributed/conftest.py).

Each game's matches of bots played to the end; a match of every registered rules version served
(stored as a server of that release wrote it: a new match always gets the latest version); a
seat's and a spectator's live stream; the many-match export in both formats, verified offline;
a tournament of each format to its closed bundle, verified offline; snapshots saved on the
cluster and a cold load folding from one. issue 32 found five ways this failed on today's main.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from domain.core import match
from domain.core.decider import Rulebook
from domain.registry import GAMES, lookup, rulebooks
from projections.export import decode_export
from projections.verify import verify
from service.loading import StateCache, decode_events
from service.store import PostgresStore, snapshots
from service.store.provisioning import create_pool
from tests.api.players import seated_match
from tests.api.tournament_support import Organizer
from tests.distributed.conftest import EXTRA_GAMES
from tests.live.stream_client import Follower, finished
from tests.replay.random_matches import play
from tests.servers import Server
from tests.store.stored import store_played

pytestmark = pytest.mark.slow
HEARTHLOG = [sys.executable, "-m", "service.cli.main"]
FINISH_SECONDS = 240
# Deathwick at six seats runs past a snapshot point (every 200 events): one is saved.
SEATS = {"deathwick": 6}


def rulebook_id(book: Rulebook) -> str:
    """A test id: game and rules version."""
    return f"{book.id}-v{book.rules_version}"


async def hearthlog(*args: str) -> tuple[int, str]:
    """Run the `hearthlog` command (carrying the server's test games): its exit code and what it
    printed."""
    process = await asyncio.create_subprocess_exec(
        *HEARTHLOG, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, "HEARTHLOG_EXTRA_GAMES": EXTRA_GAMES})
    out, _ = await asyncio.wait_for(process.communicate(), timeout=300)
    return process.returncode or 0, out.decode()


async def wait_finished(client: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    """The match's summary once finished (AssertionError past the deadline)."""
    deadline = time.monotonic() + FINISH_SECONDS
    while time.monotonic() < deadline:
        summary = (await client.get(f"/matches/{match_id}")).json()
        if summary["status"] == "finished":
            return summary
        await asyncio.sleep(0.2)
    raise AssertionError(f"match {match_id} did not finish: {summary}")


async def bots_only(client: httpx.AsyncClient, game: Rulebook) -> str:
    """A started match of the game with the random bot in every seat."""
    seats = SEATS.get(game.id, game.min_seats)
    created = await client.post("/matches", json={"game": game.id, "seats": seats})
    assert created.status_code == 201, created.text
    match_id, host = created.json()["match_id"], created.json()["host_token"]
    for _ in range(seats):
        joined = await client.post(f"/matches/{match_id}/seats", json={"bot": "random"})
        assert joined.status_code == 201, joined.text
    started = await client.post(f"/matches/{match_id}/start",
                                headers={"authorization": f"Bearer {host}"})
    assert started.status_code == 200, started.text
    return match_id


@pytest.fixture(scope="module")
async def bot_matches(cluster_server: Server) -> dict[str, str]:
    """One all-bot match of each game the server carries (its latest rules version), played to
    the end together: match id by game."""
    async with httpx.AsyncClient(base_url=cluster_server, timeout=30) as client:
        served = {game["id"] for game in (await client.get("/games")).json()["games"]}
        ids = {game: await bots_only(client, GAMES[game]) for game in sorted(served)}
        await asyncio.gather(*(wait_finished(client, mid) for mid in ids.values()))
    return ids


async def test_a_match_of_bots_of_every_game_plays_to_the_end_and_verifies(
    cluster_server: Server, bot_matches: dict[str, str]
):
    """Given the server on the cluster, when every seat of a match of each game is a bot, then
    every match finishes, and its export verifies offline under its game's latest rules."""
    assert {"deathwick", "ember", "whiteout-road", "wick-and-ember"} <= set(bot_matches)
    async with httpx.AsyncClient(base_url=cluster_server, timeout=30) as client:
        for game, match_id in bot_matches.items():
            document = decode_export((await client.get(f"/matches/{match_id}/export")).content)
            report = verify(document)
            assert report.ok, (game, report.problem)
            assert document.header.rules_version == GAMES[game].rules_version


@pytest.mark.parametrize("book", rulebooks(), ids=rulebook_id)
async def test_a_match_of_every_rules_version_is_served_and_verifies(
    cluster_server: Server, cluster_url: str, book: Rulebook
):
    """Given a finished match of a (game, rules version) written to the cluster as a server of
    its release would have, then the server answers its summary, spectator view, log, replay,
    verification and export, and the export verifies offline."""
    span = book.max_seats - book.min_seats + 1
    index = span * (1000 + rulebooks().index(book))  # its fewest seats (random_matches.play)
    pool = await create_pool(cluster_url, min_size=1, max_size=2)
    try:
        store = PostgresStore(pool)
        match_id = await store_played(store, book, play(index, game=book), at_once=True)
        await store.announcer.drain()
    finally:
        await pool.close()
    async with httpx.AsyncClient(base_url=cluster_server, timeout=30) as client:
        route = f"/matches/{match_id}"
        answers = {path: await client.get(route + path)
                   for path in ("", "/view", "/log", "/replay", "/verification", "/export")}
    assert {path: a.status_code for path, a in answers.items()} == dict.fromkeys(answers, 200)
    assert (answers[""].json()["status"], answers[""].json()["rules_version"]) == (
        "finished", book.rules_version)
    assert answers["/verification"].json()["ok"] is True
    assert verify(decode_export(answers["/export"].content)).ok


async def test_a_seat_and_a_spectator_follow_a_match_live_to_its_end(cluster_server: Server):
    """Given a match of two people on the cluster, when they play it out while one of them and
    a spectator follow its stream, then both streams end with the match finished, each version
    sent once and in order, and the seat's stream carries its legal actions, the spectator's
    none."""
    created, players = await seated_match(cluster_server, ["Ash", "Bryn"],
                                          options={"match_length": "short"})
    match_id = created["match_id"]
    ash, spectator = Follower(cluster_server, match_id, players[0].token), Follower(
        cluster_server, match_id)
    try:
        await asyncio.wait_for(asyncio.gather(
            ash.follow(finished), spectator.follow(finished),
            *(p.play_randomly(random.Random(n)) for n, p in enumerate(players))), timeout=240)
    finally:
        for client in (ash, spectator, *players):
            await client.close()
    for follower in (ash, spectator):
        versions = [update["version"] for update in follower.updates]
        assert versions == sorted(set(versions)) and finished(follower.updates[-1])
    assert ash.updates[-1]["version"] == spectator.updates[-1]["version"]
    assert all(u["actions"] is not None for u in ash.updates)
    assert all(u["actions"] is None for u in spectator.updates)


async def test_the_many_match_export_of_the_cluster_verifies_offline(
    cluster_server: Server, bot_matches: dict[str, str], tmp_path: Path
):
    """Given finished matches on the cluster, when `hearthlog export --url` writes them as NDJSON
    and as CSV, then `hearthlog verify` passes every match of the NDJSON, as many as the server
    counted, and the CSV holds one row per seat of the same matches."""
    ndjson, csv = tmp_path / "all.ndjson", tmp_path / "all.csv"
    async with httpx.AsyncClient(base_url=cluster_server, timeout=30) as client:
        counted = int((await client.get("/exports/matches")).headers["x-match-count"])
    code, out = await hearthlog("export", "--url", cluster_server, "--out", str(ndjson))
    assert code == 0, out
    code, csv_out = await hearthlog("export", "--url", cluster_server, "--format", "csv",
                                    "--out", str(csv))
    assert code == 0, csv_out
    code, report = await hearthlog("verify", str(ndjson))

    lines = ndjson.read_text().splitlines()
    assert code == 0, report[-2000:]
    assert counted >= len(bot_matches) and len(lines) == counted
    assert report.strip().endswith(f"{counted} of {counted} matches verified")
    documents = [decode_export(line) for line in lines]
    rows = csv.read_text().splitlines()[1:]
    assert len(rows) == sum(len(d.header.players) for d in documents)
    assert {row.split(",")[0] for row in rows} == {d.header.match_id for d in documents}
    finishes = [d.header.finished_at for d in documents]
    assert finishes == sorted(finishes)


@pytest.mark.parametrize("format", ["round-robin", "swiss", "single-elimination"])
async def test_a_tournament_of_each_format_runs_to_its_bundle_and_verifies(
    cluster_server: Server, format: str, tmp_path: Path
):
    """Given four bot entrants in a tournament that advances by itself, when the organizer
    starts round 1, then the sweep plays every round to the end on the cluster and the bundle,
    exported by the CLI, verifies offline."""
    organizer = Organizer(cluster_server)
    try:
        await organizer.create(name=f"Cluster {format}", format=format, auto_advance=True,
                               options={"match_length": "short"})
        for name in ("Ash", "Bryn", "Cole", "Dara"):
            await organizer.register(name, bot="random")
        await organizer.close_registration()
        await organizer.start_round()
        done = await organizer.until("finished", seconds=FINISH_SECONDS)
    finally:
        await organizer.close()
    bundle = tmp_path / "bundle.ndjson"
    code, out = await hearthlog("export", "--tournament", organizer.id, "--bundle", "--url",
                                cluster_server, "--out", str(bundle))
    assert code == 0, out
    code, report = await hearthlog("verify", str(bundle))
    assert code == 0 and report.startswith("ok "), report
    assert len(done["rounds"]) >= 2


async def test_snapshots_are_saved_on_the_cluster_and_a_cold_load_folds_from_one(
    cluster_url: str, bot_matches: dict[str, str]
):
    """Given the long match the bots played (past a snapshot point), then the cluster holds its
    snapshot, and a state cache that never saw the match loads it from that snapshot, reading
    only the events after it, to the same state as folding every event."""
    match_id = bot_matches["deathwick"]
    pool = await create_pool(cluster_url, min_size=1, max_size=2)
    try:
        held = await pool.fetchrow("SELECT version FROM snapshots WHERE match_id = $1",
                                   uuid.UUID(match_id))
        assert held is not None and held["version"] >= snapshots.EVERY
        store = Counting(PostgresStore(pool))
        loaded = await StateCache(store).load(match_id)
        everything = await PostgresStore(pool).load(match_id)
    finally:
        await pool.close()
    assert loaded.version == len(everything)
    assert store.events_read == len(everything) - held["version"] + 1
    opened = msgspec.json.decode(everything[0].data)
    game = lookup(opened["game"], opened["rules_version"])
    assert loaded.state == match.fold(game, decode_events(game, everything))


class Counting:
    """A store that counts the events it hands out."""

    def __init__(self, store: PostgresStore) -> None:
        self.store, self.events_read = store, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def load(self, match_id: str, after: int = 0, upto: int | None = None) -> list[Any]:
        events = await self.store.load(match_id, after, upto)
        self.events_read += len(events)
        return events
