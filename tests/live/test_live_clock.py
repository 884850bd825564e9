"""Turn clocks: an idle seat is played for after its deadline, across a restart, and only once
while two server processes watch the same match.

These run real server processes, which tell the wall clock's time (a test clock cannot reach
into them: tests/live/test_seat_clocks.py steps one in process). So no test sleeps a fixed time
and then asserts: each polls with a deadline for what must happen (``wait_for``), waits for a
moment by polling the wall clock until it has passed (``until_past``: a timer may wake early),
and checks that something did not happen only once a later event that must come after it is
stored.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import httpx

from domain.core import match
from domain.core.codec import event_decoder
from domain.games import GAMES
from tests.api.players import Player, seated_match
from tests.live.conftest import serving_live
from tests.live.stream_client import stored_events, wait_for

ROAD = GAMES["whiteout-road"]


async def time_outs(database_url: str, match_id: str) -> list:
    """The stored SeatTimedOut events of a match."""
    return [
        row
        for row in await stored_events(database_url, match_id)
        if row["type"] == "seat_timed_out"
    ]


async def until_past(moment: datetime) -> datetime:
    """Poll the wall clock until it has passed ``moment``; the time then."""

    async def passed() -> datetime | None:
        """The time now, once it is past the moment."""
        now = datetime.now(moment.tzinfo)
        return now if now > moment else None

    left = (moment - datetime.now(moment.tzinfo)).total_seconds()
    return await wait_for(passed, seconds=max(0.0, left) + 10, poll=0.02)


async def clocked(base: str, seconds: int) -> tuple[str, Player, dict]:
    """A started two-seat match with a turn clock; its id, Ash, and Ash's first view."""
    created, players = await seated_match(base, ["Ash", "Bryn"], turn_seconds=seconds)
    view = await players[0].get("/view")
    for player in players:
        await player.close()
    return created["match_id"], players[0], view


async def test_an_idle_seat_is_played_for_after_its_deadline(live_server, live_database):
    """Given a one-second clock and nobody acting, then after the deadline the seat to act is
    played for, logged as timed out, and the view showed that deadline."""
    match_id, _, view = await clocked(live_server, 1)
    seat, deadline = view["to_act"][0], datetime.fromisoformat(view["deadline"])
    assert view["to_act"] == [view["board"]["turn"]]
    [first, *_] = await wait_for(lambda: time_outs(live_database, match_id), seconds=60)
    assert json.loads(first["data"]) == {"type": "seat_timed_out", "seat": seat}
    assert first["recorded_at"] >= deadline
    assert json.loads(first["metadata"])["command"]["type"] == "time_out"
    rows = await stored_events(live_database, match_id)
    played = rows[first["version"]]  # the play made for the seat follows its time-out
    assert json.loads(played["data"])["seat"] == seat


async def test_the_clock_survives_a_server_restart(database_url):
    """Given a clocked match whose only server stops before the deadline, when a new server
    starts after it, then the new server plays the idle seat (nothing was kept in memory)."""
    with serving_live(database_url) as first:
        match_id, _, view = await clocked(first, 3)
    deadline = datetime.fromisoformat(view["deadline"])
    assert await time_outs(database_url, match_id) == []
    restarted_at = await until_past(deadline)
    with serving_live(database_url):
        [first_out, *_] = await wait_for(lambda: time_outs(database_url, match_id), seconds=60)
    assert first_out["recorded_at"] >= max(deadline, restarted_at)


async def test_two_server_processes_play_for_a_seat_only_once(two_servers, live_database):
    """Given two server processes and a one-second clock, then every time-out comes a full
    second after the event before it: no deadline is ever acted on twice."""
    match_id, _, _ = await clocked(two_servers[1], 1)

    async def three() -> bool:
        """Whether three seats have timed out."""
        return len(await time_outs(live_database, match_id)) >= 3

    await wait_for(three, seconds=90)
    rows = await stored_events(live_database, match_id)
    for row in rows:
        if row["type"] == "seat_timed_out":
            idle = row["recorded_at"] - rows[row["version"] - 2]["recorded_at"]
            assert idle >= timedelta(seconds=1)


def seat_time_outs(rows: list) -> list[tuple[int, int, datetime, datetime]]:
    """Each stored time-out as (seat, the version it began to owe at, when it began, when it was
    played for), from the fold of the stored events."""
    decoder, found, state = event_decoder(ROAD), [], None
    for row in rows:
        event = decoder.decode(row["data"].encode())
        if isinstance(event, match.SeatTimedOut):
            since = match.owing_since(state)[event.seat]
            found.append((event.seat, since, rows[since - 1]["recorded_at"], row["recorded_at"]))
        state = match.evolve(ROAD, state, event)
    return found


async def test_a_seat_that_never_commits_is_played_for_at_its_own_deadline_once(
    two_servers, live_database
):
    """Given Whiteout Road with a four-second clock on two server processes, when Ash commits at
    once and Bryn two seconds later (through the other server) and Cole never, then Cole's
    deadline never moved, Cole is played for once, at that deadline (before Bryn's commitment
    plus four seconds), and every time-out of the match came a full clock after its seat began
    to owe, never twice for one wait.

    "Once" is checked after the next wait's time-out is stored: that wait began when the beat
    Cole was played for resolved, so it times out a full four seconds later, by when both
    servers' sweeps (every 0.2 s) have each looked at the match many times; a second play for
    Cole's wait, made meanwhile, would be stored by then and fail the checks."""
    first, second = two_servers
    created, players = await seated_match(first, ["Ash", "Bryn", "Cole"], game="whiteout-road",
                                          turn_seconds=4)
    match_id, (ash, bryn, cole) = created["match_id"], players
    try:
        deadline = datetime.fromisoformat((await cole.get("/view"))["deadline"])
        await ash.send((await ash.get("/legal-actions"))["actions"][0]["command"])
        two_seconds_in = await until_past(deadline - timedelta(seconds=2))
        async with httpx.AsyncClient(base_url=second, headers=bryn.client.headers) as other:
            action = (await bryn.get("/legal-actions"))["actions"][0]["command"]
            sent = await other.post(f"/matches/{match_id}/commands", json={"command": action})
            assert sent.status_code == 200, sent.text
        answered = sent.json()["view"]
        assert answered["deadlines"] == [{"seat": 2, "deadline": answered["deadline"]}]
        assert datetime.fromisoformat(answered["deadline"]) == deadline
        [out, *_] = await wait_for(lambda: time_outs(live_database, match_id), seconds=60)
        assert json.loads(out["data"]) == {"type": "seat_timed_out", "seat": 2}
        assert deadline <= out["recorded_at"] < deadline + timedelta(seconds=2)
        [bryn_at] = [row["recorded_at"] for row in await stored_events(live_database, match_id)
                     if row["type"] == "play_committed" and json.loads(row["metadata"])["seat"] == 1]
        assert bryn_at >= two_seconds_in and out["recorded_at"] < bryn_at + timedelta(seconds=4)

        async def next_wait_timed_out() -> list:
            """Every time-out, once one is stored for a wait begun after Cole's first."""
            outs = seat_time_outs(await stored_events(live_database, match_id))
            return outs if any(since > outs[0][1] for _, since, _, _ in outs) else []

        outs = await wait_for(next_wait_timed_out, seconds=60)
        assert [o for o in outs if o[3] < deadline + timedelta(seconds=3)] == [outs[0]]
        assert outs[0][0] == 2
        assert all(played - began >= timedelta(seconds=4) for _, _, began, played in outs)
        assert len({(seat, since) for seat, since, _, _ in outs}) == len(outs)
    finally:
        for player in (ash, bryn):
            await player.client.post(f"/matches/{match_id}/concede")
        for player in players:
            await player.close()
