"""`hearthlog serve --workers 2 --route-by-match`: Debian's HAProxy in front of two one-worker
servers sends every request of one match to the same server, streams included.

Which server answered is read from HAProxy's own log line (one a request, in the serving
process's output: the server's name, the status, the method and the path without its query),
so nothing is added to the answers a seat sees.
"""

from __future__ import annotations

import asyncio
import random
import re
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import psutil
import pytest

from service.cli.routing import haproxy_config, logged_routes
from tests.api.players import seated_match
from tests.live.stream_client import Follower, finished
from tests.pooler import debian_package
from tests.servers import Server, copied_database, launch, serving, stop

pytestmark = pytest.mark.slow

# Two match ids HAProxy's consistent hash puts on different servers of two (w1, w2): fixed
# strings and fixed server names give the same ring every time, so this is no luck of a draw.
ON_W1 = "00000000-0000-4000-8000-000000000001"
ON_W2 = "00000000-0000-4000-8000-000000000003"


@pytest.fixture(scope="module")
async def routed_database(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """A database of this module's own."""
    async with copied_database(postgres_server_url, template_database, "routed") as url:
        yield url


@pytest.fixture(scope="module")
def routed(routed_database: str) -> Iterator[Server]:
    """Two one-worker servers behind HAProxy, routing by match."""
    debian_package("haproxy", "/usr/sbin/haproxy")
    with serving(routed_database, workers=2, args=("--route-by-match",)) as server:
        yield server


def routes(server: Server) -> list[dict[str, Any]]:
    """HAProxy's log lines so far: which server took each request."""
    return logged_routes(server.output.read_text(errors="replace"))


def logged(server: Server, wanted: Any, seconds: float = 30) -> list[dict[str, Any]]:
    """HAProxy's log lines once ``wanted(lines)`` holds (a line is written when its request is
    done, so a closed stream's line may come a moment after the close)."""
    deadline = time.monotonic() + seconds
    while not wanted(found := routes(server)):
        assert time.monotonic() < deadline, f"not logged in {seconds} s: {found[-20:]}"
        time.sleep(0.1)
    return found


def test_the_configuration_hashes_the_match_id_consistently_and_sends_the_rest_round_robin():
    """Given two servers, then match routes are hashed on the id (the path's third field) with
    consistent hashing, other routes go round robin, each part of an answer is sent at once (a
    stream's update held back by MSG_MORE cost 100 ms a move in bench/workers.py), and HAProxy
    accepts the file."""
    config = haproxy_config("127.0.0.1", 8000, [9001, 9002])
    assert "balance hash path,field(3,/)\n    hash-type consistent" in config
    assert "balance roundrobin" in config and config.count("127.0.0.1:900") == 4
    assert "option http-no-delay" in config
    checked = subprocess.run([debian_package("haproxy", "/usr/sbin/haproxy"), "-c", "-f",
                              "/dev/stdin"], input=config, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


async def test_every_request_of_a_match_reaches_one_server_and_the_match_finishes(routed):
    """Given a match created, joined, started and played out through the proxy by two seats
    while a third client follows its stream, then the match finishes, the stream saw the end,
    and every request naming the match (seats, start, views, legal actions, commands, the
    stream) was answered by the same server."""
    created, players = await seated_match(routed, ["Ash", "Bryn"])
    match_id = created["match_id"]
    follower = Follower(routed, match_id, players[0].token)
    following = asyncio.create_task(follower.follow(finished))
    try:
        ends = await asyncio.gather(*(player.play_randomly(random.Random(seat))
                                      for seat, player in enumerate(players)))
        await asyncio.wait_for(following, timeout=60)
    finally:
        following.cancel()
        await follower.close()
        for player in players:
            await player.close()
    assert all(end["status"] == "finished" for end in ends)
    assert finished(follower.updates[-1])

    def whole(lines: list[dict[str, Any]]) -> bool:
        """Whether the stream's line is logged (it is written when the stream closes)."""
        return any(line["path"] == f"/matches/{match_id}/stream" for line in lines)

    mine = [line for line in logged(routed, whole) if f"/matches/{match_id}" in line["path"]]
    paths = {(line["method"], line["path"].removeprefix(f"/matches/{match_id}")) for line in mine}
    assert {("POST", "/seats"), ("POST", "/start"), ("POST", "/commands"),
            ("GET", "/stream")} <= paths
    assert len({line["route"] for line in mine}) == 1, mine


async def test_two_matches_can_land_on_different_servers_and_each_stays_on_its_own(routed):
    """Given two fixed match ids the hash puts apart, when each is asked for three times on
    fresh connections, then each id's requests all go to one server and the two servers differ
    (the matches do not exist: each server answers 404 itself)."""
    for match_id in (ON_W1, ON_W2) * 3:
        async with httpx.AsyncClient(base_url=routed) as client:
            assert (await client.get(f"/matches/{match_id}")).status_code == 404

    def both(lines: list[dict[str, Any]]) -> bool:
        """Whether all six requests are logged."""
        return sum(line["path"] in (f"/matches/{ON_W1}", f"/matches/{ON_W2}")
                   for line in lines) == 6

    lines = logged(routed, both)
    servers = {match_id: {line["route"] for line in lines if line["path"] == f"/matches/{match_id}"}
               for match_id in (ON_W1, ON_W2)}
    assert servers == {ON_W1: {"w1"}, ON_W2: {"w2"}}


async def test_a_route_that_names_no_match_goes_to_any_server(routed):
    """Given requests naming no match (the games' list), when four are sent one after another,
    then both servers took some: round robin."""
    async with httpx.AsyncClient(base_url=routed) as client:
        for _ in range(4):
            assert (await client.get("/games")).status_code == 200

    def four(lines: list[dict[str, Any]]) -> bool:
        """Whether the four are logged."""
        return sum(line["path"] == "/games" for line in lines) >= 4

    lines = [line for line in logged(routed, four) if line["path"] == "/games"]
    assert {line["route"] for line in lines} == {"w1", "w2"}


def test_a_stopped_set_leaves_no_server_and_no_haproxy_running(routed_database):
    """Given a routed set of two, when its serving process gets SIGTERM, then it exits 0 and
    neither server nor HAProxy is left running."""
    server = launch(routed_database, workers=2, args=("--route-by-match",))
    try:
        children = psutil.Process(server.process.pid).children(recursive=True)
        assert sum("haproxy" in child.name() for child in children) == 1 and len(children) >= 3
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=60) == 0
        _, alive = psutil.wait_procs(children, timeout=20)
        assert alive == []
    finally:
        stop(server)
        server.output.unlink(missing_ok=True)


async def test_a_server_lost_moves_only_its_own_matches_and_they_come_back(routed_database):
    """Given a routed set of two, when w2's server is killed (kill -9), then a match of w1 is
    still answered by w1 only, a match of w2 is answered meanwhile (by w1: HAProxy's retry and
    health check), the set starts w2 again, and w2's match goes back to it."""
    server = launch(routed_database, workers=2, args=("--route-by-match",))
    try:
        ports = re.search(r"loopback ports (\d+), (\d+)", server.output.read_text())
        assert ports is not None
        lost = [child for child in psutil.Process(server.process.pid).children()
                if ports.group(2) in child.cmdline()]
        assert len(lost) == 1
        group = [lost[0], *lost[0].children(recursive=True)]  # its granian worker too
        for process in group:
            process.kill()
        psutil.wait_procs(group, timeout=20)
        async with httpx.AsyncClient(base_url=server) as client:
            deadline = time.monotonic() + 60
            while True:  # until w2 is back and takes its match again
                for match_id in (ON_W1, ON_W2):
                    assert (await client.get(f"/matches/{match_id}")).status_code == 404
                back = [line for line in routes(server) if line["path"] == f"/matches/{ON_W2}"]
                if back and back[-1]["route"] == "w2":
                    break
                assert time.monotonic() < deadline, "w2 did not come back in 60 s"
                await asyncio.sleep(0.2)
        lines = routes(server)
        assert {line["route"] for line in lines if line["path"] == f"/matches/{ON_W1}"} == {"w1"}
        assert {line["route"] for line in lines if line["path"] == f"/matches/{ON_W2}"} == {
            "w1", "w2"}
        assert f"The server on port {ports.group(2)} died; starting it again" in (
            server.output.read_text())
    finally:
        stop(server)
        server.output.unlink(missing_ok=True)


async def test_the_proxys_log_line_leaves_out_the_query_where_a_stream_ticket_travels(routed):
    """Given a stream asked for with a ticket in its query, then HAProxy's line for it names
    the path alone: the ticket is in no line of the set's output."""
    async with httpx.AsyncClient(base_url=routed) as client:
        answer = await client.get(f"/matches/{ON_W1}/stream", params={"ticket": "not-a-ticket"})
        assert answer.status_code >= 400

    def streamed(lines: list[dict[str, Any]]) -> bool:
        """Whether the stream's request is logged."""
        return any(line["path"] == f"/matches/{ON_W1}/stream" for line in lines)

    logged(routed, streamed)
    assert "not-a-ticket" not in routed.output.read_text()  # HAProxy's lines and the servers'
