"""Reads from a real streaming standby: served there when that cannot be wrong, else by the
primary (or 503 for many-match exports), never a 500, never stale data for a finished match.

Which database answered each read is the server's own access-log line (``read``); the first
test also stops the primary to show the standby alone serves a finished match.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest

from service.exports import ExportService
from service.store import PostgresStore
from service.store.provisioning import create_pool
from tests.api.players import seated_match
from tests.replica.served import served
from tests.servers import Server, wait_healthy
from tests.standby import Pair

pytestmark = pytest.mark.slow
ROUTES = ("export", "replay", "verification", "replay/1?seat=0")


async def until_read(server: Server, url: str, read: str, seconds: float = 20) -> httpx.Response:
    """GET ``url`` until the database named serves it (a 200); fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        answer, by = await served(server, url)
        assert answer.status_code != 500, answer.text
        if answer.status_code == 200 and by == read:
            return answer
        assert time.monotonic() < deadline, f"{url} still served by {by}: {answer.status_code}"
        await asyncio.sleep(0.2)


async def until_refused(server: Server, url: str, seconds: float = 20) -> httpx.Response:
    """GET ``url`` until it is refused with a 503, fail after ``seconds``; meanwhile only the
    standby may answer it. Each worker proves the standby current by its own probe, a second
    apart, so one worker may still find it within the lag bound (and serve it, as it may) just
    after another found it past."""
    deadline = time.monotonic() + seconds
    while True:
        answer, by = await served(server, url)
        if answer.status_code == 503 and by is None:
            return answer
        assert (answer.status_code, by) == (200, "standby"), answer.text
        assert time.monotonic() < deadline, f"{url} still served by the standby"
        await asyncio.sleep(0.2)


async def finished_match(server: Server, *, started: Any = None) -> str:
    """A two-seat match played to its end (the first seat concedes); ``started`` is awaited
    between the start and the end."""
    created, players = await seated_match(server, ["Ash", "Bryn"])
    if started is not None:
        await started(created["match_id"])
    try:
        conceded = await players[0].client.post(f"/matches/{created['match_id']}/concede")
        assert conceded.status_code == 200, conceded.text
        assert conceded.json()["view"]["status"] == "finished"
    finally:
        for player in players:
            await player.close()
    return str(created["match_id"])


async def primary_export(database_url: str, match_id: str) -> bytes:
    """The export document the primary holds, read straight from it."""
    pool = await create_pool(database_url, min_size=1, max_size=1)
    try:
        return await ExportService(PostgresStore(pool)).export(match_id)
    finally:
        await pool.close()


async def test_a_finished_match_is_served_by_the_standby_even_with_the_primary_stopped(
    pair: Pair, replicated: tuple[str, str], read_server: Server
):
    """Given a finished match the standby has replayed, when its export, replay, verification
    and a past view are asked, then the standby serves each, the export byte for byte the
    primary's; and with the primary stopped the standby still serves them while a view of the
    match (primary only) is a 503, never a 500."""
    match_id = await finished_match(read_server)
    expected = await primary_export(replicated[0], match_id)
    await pair.caught_up()
    for route in ROUTES:
        answer, by = await served(read_server, f"/matches/{match_id}/{route}")
        assert (answer.status_code, by) == (200, "standby"), (route, answer.text)
    export, _ = await served(read_server, f"/matches/{match_id}/export")
    assert export.content == expected
    pair.stop_primary()
    try:
        alone, by = await served(read_server, f"/matches/{match_id}/export")
        assert (alone.status_code, by, alone.content) == (200, "standby", expected)
        view, _ = await served(read_server, f"/matches/{match_id}/view")
        assert view.status_code == 503 and view.headers["retry-after"], view.text
    finally:
        pair.start_primary()
    wait_healthy(read_server)
    await pair.caught_up()


async def test_a_standby_behind_never_serves_a_match_it_has_not_seen_finish(
    pair: Pair, replicated: tuple[str, str], read_server: Server
):
    """Given a match in play on both, when the standby's replay is paused and the match
    finishes on the primary (and another is played through), then their exports come from the
    primary, correct; listings fall back once the lag bound passes and many-match exports are a
    503 with Retry-After; resumed, the standby serves them all again."""

    async def seen_running(match_id: str) -> None:
        await pair.caught_up()
        await pair.pause_replay()

    await pair.resume_replay()
    running = await finished_match(read_server, started=seen_running)
    try:
        unseen = await finished_match(read_server)
        for match_id in (running, unseen):
            expected = await primary_export(replicated[0], match_id)
            for route in ROUTES:
                answer, by = await served(read_server, f"/matches/{match_id}/{route}")
                assert (answer.status_code, by) == (200, "primary"), (route, answer.text)
            export, _ = await served(read_server, f"/matches/{match_id}/export")
            assert export.content == expected
        listed = await until_read(read_server, "/matches?status=finished", "primary")
        assert {running, unseen} <= {m["match_id"] for m in listed.json()["matches"]}
        many = await until_refused(read_server, "/exports/matches")
        assert many.headers["retry-after"], many.text
        assert "read replica" in many.json()["detail"]
    finally:
        await pair.resume_replay()
    await pair.caught_up()
    await until_read(read_server, f"/matches/{running}/export", "standby")
    await until_read(read_server, "/matches", "standby")
    many = await until_read(read_server, "/exports/matches", "standby")
    assert {running, unseen} <= {json.loads(line)["header"]["match_id"] for line in many.text.splitlines()}


async def test_a_stopped_standby_sends_reads_to_the_primary_and_is_used_again_once_back(
    pair: Pair, replicated: tuple[str, str], read_server: Server
):
    """Given a finished match, when the standby is stopped, then its export, replay,
    verification and the listing are served by the primary, correct, and many-match exports
    are a 503 with Retry-After (never a 500); when it is started again, it serves them again."""
    match_id = await finished_match(read_server)
    expected = await primary_export(replicated[0], match_id)
    await pair.caught_up()
    pair.stop_standby()
    try:
        for route in ROUTES:
            answer, by = await served(read_server, f"/matches/{match_id}/{route}")
            assert (answer.status_code, by) == (200, "primary"), (route, answer.text)
        export, _ = await served(read_server, f"/matches/{match_id}/export")
        assert export.content == expected
        listed, by = await served(read_server, "/matches")
        assert (listed.status_code, by) == (200, "primary")
        many, _ = await served(read_server, "/exports/matches?format=csv")
        assert many.status_code == 503 and many.headers["retry-after"], many.text
    finally:
        pair.start_standby()
    again = await until_read(read_server, f"/matches/{match_id}/export", "standby")
    assert again.content == expected
    await until_read(read_server, "/exports/matches?format=csv", "standby")
