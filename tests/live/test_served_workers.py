"""`hearthlog serve --workers 2`: everything a worker keeps for itself stays right when another
worker takes the next request (the listener, the clock's sweep and the bots, the caches, stream
tickets, the stream caps), each shown through clients pinned to one worker each."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta

import httpx
import pytest

from tests.api.players import finished_documents, seated_match
from tests.api.test_commands import practice
from tests.live.conftest import FAST
from tests.live.stream_client import Follower, stored_events, wait_for
from tests.live.test_live_bots import bot_match
from tests.live.workers_support import pinned, sessions, workers_of
from tests.reliability.audit import audit
from tests.servers import Server, copied_database, serving

# Two of Ash's first moves at the practice table: a Warden that misses Bryn's Hearthflame, and
# the Veilkeeper.
WARDEN_MISS = {"type": "play", "card": "lamp_warden", "target": 1, "guess": "lensmaker"}
VEILKEEPER = {"type": "play", "card": "veilkeeper", "target": None, "guess": None}


@pytest.fixture(scope="module")
async def workers_database(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """A database of its own: its sessions are this server's alone."""
    async with copied_database(postgres_server_url, template_database, "workers") as url:
        yield url


@pytest.fixture(scope="module")
def two_workers(workers_database: str) -> Iterator[Server]:
    """One `hearthlog serve --workers 2` with the fast live timings, but streams that re-read
    the store only every two minutes: an update sooner came by the notification."""
    env = {**FAST, "HEARTHLOG_HEARTBEAT_SECONDS": "120"}
    with serving(workers_database, env=env, workers=2) as server:
        asyncio.run(every_worker_answers(server))
        yield server


async def every_worker_answers(server: Server) -> None:
    """Wait until each worker has answered /health (the server answered once it had one)."""
    for client in (await pinned(server)).values():
        await client.aclose()


def bearer(token: str) -> dict[str, str]:
    """The Authorization header of a token."""
    return {"authorization": f"Bearer {token}"}


async def both(server: Server, headers: dict[str, str] | None = None) -> list[httpx.AsyncClient]:
    """Two clients, each pinned to a different worker."""
    clients = list((await pinned(server, headers)).values())
    assert len(clients) == 2
    return clients


async def test_the_server_runs_two_workers_each_with_its_own_listener(two_workers, workers_database):
    """Given --workers 2, then two worker processes serve the port, each holds one LISTEN
    session (so each hears every append), and the serving process said what they may hold."""
    assert len(workers_of(two_workers)) == 2

    async def listening() -> bool:
        """Whether both workers' listeners are connected."""
        return await sessions(workers_database, "hearthlog-listen") == 2

    await wait_for(listening, seconds=30)
    assert "2 worker(s) x (pool 32 + 1 listener) = at most 66" in two_workers.output.read_text()


async def test_a_command_sent_to_one_worker_reaches_a_stream_held_by_the_other(two_workers):
    """Given a spectator's stream held by worker B, when Ash plays through worker A, then B's
    stream sends that version, and every version once, in order."""
    created, (ash, bryn) = await seated_match(two_workers, ["Ash", "Bryn"])
    match_id = created["match_id"]
    a, b = await both(two_workers, bearer(ash.token))
    spectator = Follower(two_workers, match_id)
    await spectator.client.aclose()
    spectator.client = b
    b.headers.pop("authorization")
    seat, mover = (ash, a) if (await ash.get("/view"))["to_act"] == [0] else (bryn, a)
    a.headers["authorization"] = f"Bearer {seat.token}"
    start = (await seat.get("/view"))["version"]
    action = (await seat.get("/legal-actions"))["actions"][0]["command"]
    following = asyncio.create_task(spectator.follow(lambda u: u["version"] > start))

    async def opened() -> bool:
        """Whether B's stream sent its first update: it is open before the command goes to A."""
        return bool(spectator.updates)

    await wait_for(opened, seconds=20, poll=0.02)
    sent = await mover.post(f"/matches/{match_id}/commands", json={"command": action})
    assert sent.status_code == 200, sent.text
    await asyncio.wait_for(following, timeout=20)  # well before a heartbeat's re-read
    versions = [(u["first"], u["version"]) for u in spectator.updates]
    assert versions[0][0] == 1 and versions[-1][1] == sent.json()["version"]
    assert all(later[0] == earlier[1] + 1 for earlier, later in itertools.pairwise(versions))
    for client in (a, b, ash.client, bryn.client):
        await client.aclose()


async def test_a_stream_ticket_issued_by_one_worker_opens_the_stream_on_the_other(two_workers):
    """Given a ticket Ash got from worker A (signed, nothing stored), when she opens her stream
    with it on worker B, then B serves Ash's own stream (her seat, her private lines)."""
    created, (ash, bryn) = await seated_match(two_workers, ["Ash", "Bryn"])
    match_id = created["match_id"]
    a, b = await both(two_workers, bearer(ash.token))
    issued = await a.post(f"/matches/{match_id}/stream-ticket")
    assert issued.status_code == 201, issued.text
    b.headers.pop("authorization")
    async with b.stream("GET", f"/matches/{match_id}/stream",
                        params={"ticket": issued.json()["ticket"]}) as answer:
        assert answer.status_code == 200
        async for line in answer.aiter_lines():
            if line.startswith("data:"):
                update = json.loads(line[5:])
                break
    assert update["view"]["seat"] == 0
    assert any(line["private"] for line in update["log"])
    for client in (a, b, ash.client, bryn.client):
        await client.aclose()


async def test_a_worker_never_serves_or_decides_on_a_state_another_worker_made_stale(
    two_workers, workers_database
):
    """Given worker A holding the match in its cache (it served the seat's legal actions), when
    the seat plays through worker B, then A's view shows B's version; a command sent through A
    that was legal in A's cached state but is not any more is refused and stores nothing, and so
    is any command sent through A expecting the cached version.

    The table is a practice one with a scripted deal (tests/api/test_commands.py's KNOWN_ROUND,
    Ash opening with a Veilkeeper and a Lamp Warden, Bryn holding the Hearthflame): Ash's Warden
    guessing a Lensmaker misses, the round goes on and it is Bryn's turn, so Ash's Veilkeeper,
    legal in A's cached state, is not any more. (A move that ends a round can leave the same
    seat to open the next with the same cards, every cached command legal again: a random deal
    had to be dealt again until one left a stale command.)"""
    created, (ash, bryn) = await practice(two_workers)
    match_id = created["match_id"]
    a, b = await both(two_workers, bearer(ash.token))
    url = f"/matches/{match_id}"
    cached = (await a.get(f"{url}/legal-actions")).json()
    commands = [act["command"] for act in cached["actions"]]
    assert WARDEN_MISS in commands and VEILKEEPER in commands
    moved = await b.post(f"{url}/commands", json={"command": WARDEN_MISS})
    assert moved.status_code == 200, moved.text
    seen = (await a.get(f"{url}/view")).json()
    assert seen["version"] == moved.json()["version"] > cached["version"]
    assert seen["to_act"] == [1]
    assert (await b.get(f"{url}/legal-actions")).json()["actions"] == []
    again = await a.post(f"{url}/commands", json={"command": VEILKEEPER})
    assert again.status_code in (409, 422), again.text
    body = {"command": cached["actions"][0]["command"], "expected_version": cached["version"]}
    expected = await a.post(f"{url}/commands", json=body)
    assert expected.status_code == 409, expected.text
    rows = await stored_events(workers_database, match_id)
    assert rows[-1]["version"] == moved.json()["version"]
    for client in (a, b, ash.client, bryn.client):
        await client.aclose()


async def test_two_workers_play_each_time_out_once(two_workers, workers_database):
    """Given a one-second clock and nobody acting, with both workers' sweeps watching, then every
    time-out comes a full second after the event before it: no deadline acted on twice."""
    created, players = await seated_match(two_workers, ["Ash", "Bryn"], turn_seconds=1)
    match_id = created["match_id"]

    async def three() -> list:
        """The time-outs, once there are three."""
        rows = await stored_events(workers_database, match_id)
        return rows if sum(r["type"] == "seat_timed_out" for r in rows) >= 3 else []

    rows = await wait_for(three, seconds=90)
    for row in rows:
        if row["type"] == "seat_timed_out":
            idle = row["recorded_at"] - rows[row["version"] - 2]["recorded_at"]
            assert idle >= timedelta(seconds=1)
    for player in players:
        await player.client.post(f"/matches/{match_id}/concede")
        await player.close()


async def test_two_workers_play_a_match_of_bots_with_each_move_once(two_workers, workers_database):
    """Given four bots and both workers' bot runners poked by every append, when the match is
    played to its end, then the audit finds every version once, every command's events exactly
    what the rules give for it (none applied twice), and the export verifies."""
    created, _ = await bot_match(two_workers, ["random", "careful", "random", "careful"], [],
                                 options={"match_length": "short"})
    match_id = created["match_id"]

    async def over() -> bool:
        """Whether the match is finished."""
        async with httpx.AsyncClient(base_url=two_workers) as client:
            return (await client.get(f"/matches/{match_id}")).json()["status"] == "finished"

    await wait_for(over, seconds=180, poll=0.3)
    events, problems = await audit(workers_database, [match_id])
    # (the audit's own export leaves the bots out of the header: the server's is checked instead)
    assert [p for p in problems if "verifier" not in p] == [] and events > 10
    _, verification, _ = await finished_documents(two_workers, match_id)
    assert verification["ok"], verification


async def test_the_database_holds_no_more_sessions_than_the_workers_budget(two_workers,
                                                                          workers_database):
    """Given two workers under a burst of 64 concurrent views, then the database never holds
    more of this server's sessions than 2 x (pool 32 + 1 listener) = 66."""
    created, players = await seated_match(two_workers, ["Ash", "Bryn"])
    url = f"/matches/{created['match_id']}/view"
    clients = [httpx.AsyncClient(base_url=two_workers) for _ in range(64)]
    try:
        for _ in range(5):
            answers = await asyncio.gather(*(c.get(url) for c in clients))
            assert all(a.status_code == 200 for a in answers)
        held = await sessions(workers_database, "hearthlog")
        listening = await sessions(workers_database, "hearthlog-listen")
    finally:
        for client in clients:
            await client.aclose()
        for player in players:
            await player.close()
    assert 2 <= held <= 64 and listening == 2


async def test_the_stream_caps_are_per_worker_so_n_workers_allow_n_times_a_cap(workers_database):
    """Given two workers and a cap of one follower per match, then one follower on each worker
    is served (two in all: the cap holds per worker, docs/limits.md) and a second one on a
    worker that already serves one gets 429."""
    env = {**FAST, "HEARTHLOG_STREAMS_PER_MATCH": "1"}
    with serving(workers_database, env=env, workers=2) as server:
        await every_worker_answers(server)
        created, players = await seated_match(server, ["Ash", "Bryn"])
        stream = f"/matches/{created['match_id']}/stream"
        first = await pinned(server)
        second = await pinned(server)
        (pid, a), (_, b) = sorted(first.items())
        async with a.stream("GET", stream) as on_a, b.stream("GET", stream) as on_b:
            assert (on_a.status_code, on_b.status_code) == (200, 200)
            refused = await second[pid].get(stream)
        assert refused.status_code == 429
        assert "HEARTHLOG_STREAMS_PER_MATCH" in refused.json()["detail"]
        for client in (*first.values(), *second.values(), *(p.client for p in players)):
            await client.aclose()
