"""The match stream: every version once and in order, across a dropped connection and a cut
listener, while another server process takes the commands; and spectators see nothing hidden."""

from __future__ import annotations

import asyncio
import random
import uuid
from typing import Any

import httpx
import msgspec
import pytest

from domain.core import match
from domain.core.codec import event_decoder
from projections.log import seat_log
from tests.api.players import open_match, seated_match
from tests.live.live_support import WICK
from tests.live.stream_client import (
    Follower,
    cut_listeners,
    finished,
    stored_events,
    wait_for,
)


@pytest.fixture(scope="module")
async def followed(two_servers, live_database) -> dict[str, Any]:
    """A two-seat match played through server B and followed on server A by Ash and by a
    spectator; midway Ash hangs up and every listener is cut, then Ash resumes."""
    a, b = two_servers
    # Six embers: dozens of commands, so the match cannot end before Ash hangs up.
    created, players = await seated_match(b, ["Ash", "Bryn"], options={"ember_target": 6})
    match_id = created["match_id"]
    ash, spectator = Follower(a, match_id, players[0].token), Follower(a, match_id)
    cut, away = [], []

    async def sent_past(version: int) -> int:
        """The last version server A sent the spectator, once it is past ``version`` (0 until
        then): server A has a version Ash, who left at ``version``, has not seen."""
        sent = spectator.updates[-1]["version"] if spectator.updates else 0
        return sent if sent > version else 0

    async def ash_follows() -> None:
        """Follow for five updates, hang up, cut the listeners, wait until play has gone on
        (server A has sent the spectator a version Ash missed), then resume after the last id."""
        await ash.follow(finished, limit=5)
        if not finished(ash.updates[-1]):
            cut.append(await cut_listeners(live_database))
            left = ash.updates[-1]["version"]
            away.append((left, await wait_for(lambda: sent_past(left), seconds=60, poll=0.05)))
            await ash.follow(finished)

    play = [p.play_randomly(random.Random(n)) for n, p in enumerate(players)]
    try:
        await asyncio.wait_for(
            asyncio.gather(ash_follows(), spectator.follow(finished), *play), timeout=240
        )
    finally:
        for client in (ash, spectator, *players):
            await client.close()
    return {
        "ash": ash,
        "spectator": spectator,
        "cut": cut,
        "away": away,
        "events": await stored_events(live_database, match_id),
    }


def test_a_follower_sees_every_version_once_in_order_across_a_reconnect(followed):
    """Given commands sent to server B, when Ash follows server A, hangs up and resumes with
    Last-Event-ID while every listener is cut, then Ash's updates cover versions 1 to the last
    exactly once, in order, each with a view of its own version.

    Ash resumes only once server A has sent the spectator a version Ash has not seen
    (``away``: the last version Ash saw, the spectator's latest when Ash resumed), so the
    resumed stream must catch up on what was missed, in one update: a server that went on
    from the present would leave a gap here, whatever the timing."""
    updates, events = followed["ash"].updates, followed["events"]
    assert followed["cut"] and followed["cut"][0] >= 2  # both servers' listeners were cut
    [(left, missed)] = followed["away"]
    assert missed > left  # play went on while Ash was away
    assert len(updates) > 5  # five, then at least the catch-up after the reconnect
    assert (updates[5]["first"], updates[5]["version"] >= missed) == (left + 1, True)
    covered = [v for u in updates for v in range(u["first"], u["version"] + 1)]
    assert covered == list(range(1, len(events) + 1))
    assert all(u["view"]["version"] == u["version"] for u in updates)
    assert followed["ash"].last_id == str(updates[-1]["version"])
    for update in updates:
        versions = [line["version"] for line in update["log"]]
        assert all(update["first"] <= version <= update["version"] for version in versions)


def test_each_stream_carries_exactly_its_viewers_log(followed):
    """Given the stored events, then Ash's stream holds Ash's log (private lines included) and
    the spectator's holds the public log, line for line."""
    events = _decoded(followed["events"])
    for viewer, seat in ((followed["ash"], 0), (followed["spectator"], None)):
        lines = [line for update in viewer.updates for line in update["log"]]
        expected = msgspec.json.decode(msgspec.json.encode(seat_log(WICK, events, seat)))
        assert lines == expected
    assert any(line["private"] for u in followed["ash"].updates for line in u["log"])


def test_a_spectator_stream_never_carries_a_hidden_card(followed):
    """Given every spectator update, then its board is exactly the rules' spectator view of the
    match at that version: no hand, no note, no legal action, and no private log line."""
    events = _decoded(followed["events"])
    for update in followed["spectator"].updates:
        state = match.fold(WICK, events[: update["version"]])
        board = update["view"]["board"]
        if isinstance(state, match.Table):
            assert board == msgspec.json.decode(msgspec.json.encode(WICK.observe(state.game, None)))
            assert board["hand"] == [] and board["notes"] == [] and board["legal_actions"] == []
        assert update["view"]["seat"] is None
        assert not any(line["private"] for line in update["log"])


def _decoded(rows: list[Any]) -> list[Any]:
    """Typed events from stored rows."""
    decoder = event_decoder(WICK)
    return [decoder.decode(row["data"].encode()) for row in rows]


async def test_a_quiet_stream_beats_and_bad_requests_are_refused_before_streaming(live_server):
    """Given a lobby nobody touches, then its stream sends the lobby, then heartbeats (followed
    until the second comes, with a deadline) and nothing else; an unknown match is 404 and a
    token of no seat of the match is 401, before any event is sent."""
    created = await open_match(live_server, 2)
    quiet = Follower(live_server, created["match_id"])
    await asyncio.wait_for(quiet.follow(lambda update: False, beats=2), timeout=60)
    await quiet.close()
    assert [u["version"] for u in quiet.updates] == [1] and quiet.heartbeats >= 2
    async with httpx.AsyncClient(base_url=live_server) as client:
        unknown = await client.get(f"/matches/{uuid.uuid4()}/stream")
        stranger = await client.get(
            f"/matches/{created['match_id']}/stream", headers={"authorization": "Bearer not-a-seat"}
        )
    assert (unknown.status_code, stranger.status_code) == (404, 401)
