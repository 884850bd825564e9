"""Per-seat clocks and bots in a simultaneous phase (Whiteout Road), in one process: each seat's
deadline runs from when it began to owe, a time-out plays the game's declared default (H13), and
bots fill every bot seat of a phase within one delay.

Each test deals from a counted seed source (tests/core/sources.py), so it plays the same match
every run and asserts the phase it wants (a changed deal fails loudly instead of by luck), and
all but the last tell the time by a stopped clock: the store records, the service stamps and the
bot runner decides what is due by that one clock, which the test advances by hand, so no test
sleeps and "not yet" is a checked answer (``BotRunner.step`` finds nothing due), not a guess.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import msgspec

from domain.core.codec import event_decoder
from domain.games import GAMES
from domain.whiteout_road.cards import height, sort_key
from service import schemas
from service.clock import Due
from service.live import bots as bots_module
from service.live.bots import BotRunner
from service.matches import MatchService
from service.store.memory import MemoryStore
from tests.core.sources import StoppedClock, counted_seeds
from tests.live.stream_client import wait_for

ROAD = GAMES["whiteout-road"]
TICK = timedelta(microseconds=1)


def served(label: str) -> tuple[MemoryStore, MatchService, StoppedClock]:
    """A memory store and a match service on one stopped clock, dealing from
    ``counted_seeds(label)``."""
    clock = StoppedClock()
    store = MemoryStore(clock=clock)
    return store, MatchService(store, seeds=counted_seeds(label), clock=clock), clock


async def road(service: MatchService, seats: list[str | None], **body: Any) -> tuple[str, list]:
    """A started Whiteout Road match: a bot (by name) or a person (None) per seat; its id and
    the people's tokens by seat."""
    created = await service.create(schemas.CreateMatch(game="whiteout-road", seats=len(seats),
                                                       **body))
    tokens: list[str | None] = []
    for n, bot in enumerate(seats):
        join = {"bot": bot} if bot else {"name": f"Person {n}"}
        tokens.append((await service.join(created.match_id,
                                          msgspec.convert(join, schemas.JoinSeat))).token)
    await service.start(created.match_id, created.host_token)
    return created.match_id, tokens


async def commit(service: MatchService, match_id: str, token: str) -> dict:
    """Send the seat's first legal commitment; its answer."""
    actions = (await service.legal_actions(match_id, token)).actions
    body = schemas.SendCommand(command=actions[0].command)
    status, answer = await service.command(match_id, token, body)
    assert status == 200
    return msgspec.json.decode(answer)


def by_seat(view: schemas.MatchView) -> dict[int, datetime]:
    """The view's per-seat deadlines."""
    return {d.seat: d.deadline for d in view.deadlines}


async def events_of(store: MemoryStore, match_id: str) -> list[tuple[Any, Any]]:
    """(stored row, typed event) for every event of the match."""
    decoder = event_decoder(ROAD)
    return [(row, decoder.decode(row.data)) for row in await store.load(match_id)]


async def test_a_seat_that_commits_does_not_move_another_seats_deadline():
    """Given three people owing the first beat's card with a clock, when seat 0 commits, then
    seats 1 and 2 keep the very deadlines they had, seat 0 has none, each seat's own view names
    its own deadline, and a spectator's names the soonest. (The deal of counted_seeds
    ("own-deadlines") begins with a beat; seat 0 commits ten seconds in, by the stopped clock.)"""
    _, service, clock = served("own-deadlines")
    match_id, tokens = await road(service, [None, None, None], turn_seconds=3600)
    before = [await service.view(match_id, token) for token in tokens]
    assert before[0].board.phase == "beat"
    assert set(by_seat(before[0])) == {0, 1, 2}
    clock.advance(10)
    await commit(service, match_id, tokens[0])
    after = [await service.view(match_id, token) for token in tokens]
    spectator = await service.view(match_id, None)
    assert by_seat(after[1]) == {1: by_seat(before[0])[1], 2: by_seat(before[0])[2]}
    assert after[1].deadline == by_seat(before[1])[1] and after[2].deadline == by_seat(before[2])[2]
    assert spectator.deadline == min(by_seat(after[0]).values())
    assert after[0].to_act == [1, 2]


async def test_h13_a_seat_that_never_commits_is_fed_for_at_its_own_deadline():
    """H13: given two people and a two-second clock, when seat 0 commits 0.8 s in and seat 1
    never does, then seat 1 is not played for a microsecond before its own two seconds are over,
    and is played for at that moment (before seat 0's commitment plus two), by feeding its lowest
    card.

    About one 2-seat deal in forty calls the Gambit at once (R6: the whiteout before any beat),
    where a time-out flings rather than feeds (tests/core/test_time_out_defaults.py pins both).
    This test asks for a deal that begins with a beat: counted_seeds("h13-beat")'s first seed
    deals seat 1 3H 9H 8D 2S 5S 10S JS QS and opens the first night with a beat. The runner's
    step is the loop ``poke`` runs, one turn of it, at the stopped clock's time."""
    store, service, clock = served("h13-beat")
    runner = BotRunner(service, bot_delay=0)
    match_id, tokens = await road(service, [None, None], turn_seconds=2)
    first = await service.view(match_id, tokens[1])
    assert first.board.phase == "beat", "the deal of counted_seeds('h13-beat') has changed"
    deadline, hand = first.deadline, first.board.hand
    assert deadline is not None
    clock.advance(0.8)
    await commit(service, match_id, tokens[0])
    committed_at = (await store.load(match_id))[-1].recorded_at
    assert committed_at < deadline  # seat 0 committed in time, moving nobody's clock
    clock.advance_to(deadline - TICK)
    assert await runner.step(match_id) is None
    assert not await _timed_out(store, match_id)
    clock.advance_to(deadline)
    assert await runner.step(match_id) == Due(at=deadline, seat=1, kind="clock")
    rows = await events_of(store, match_id)
    [(out, _), *_] = [(row, e) for row, e in rows if type(e).__name__ == "SeatTimedOut"
                      and e.seat == 1]
    assert deadline <= out.recorded_at < committed_at + timedelta(seconds=2)
    played = next(e for row, e in rows if row.version == out.version + 1)
    lowest = min(hand, key=lambda c: (height(c), sort_key(c)))
    assert (played.seat, played.card, played.play) == (1, lowest, "feed")


async def test_bots_fill_several_seats_of_a_simultaneous_phase_within_one_delay():
    """Given three bots and a person owing the first beat at once, when the bots' delay is over,
    then all three bots have committed at that one moment (each after its own delay, not one bot
    per delay), and none a microsecond before it.

    The runner is poked with the stopped clock at the end of the delay: had it counted each
    bot's delay from the latest event, the second bot would not be due until the clock moved,
    and the clock never moves, so the three commitments would never come (``wait_for`` fails)."""
    delay = 0.6
    store, service, clock = served("bots-fill-a-beat")
    runner = BotRunner(service, bot_delay=delay)
    match_id, tokens = await road(service, ["random", "random", "random", None])
    assert (await service.view(match_id, tokens[3])).board.phase == "beat"
    began = (await store.load(match_id))[-1].recorded_at
    clock.advance_to(began + timedelta(seconds=delay) - TICK)
    assert await runner.step(match_id) is None
    clock.advance_to(began + timedelta(seconds=delay))
    runner.poke(match_id)

    async def three() -> list:
        """The bots' commitments, once there are three."""
        found = [row for row, e in await events_of(store, match_id)
                 if type(e).__name__ == "PlayCommitted"]
        return found if len(found) >= 3 else []

    try:
        committed = await wait_for(three, seconds=10, poll=0.01)
    finally:
        await runner.stop()
    waited = [(row.recorded_at - began).total_seconds() for row in committed]
    assert all(delay <= w < delay + 0.001 for w in waited), waited
    assert {row.metadata["seat"] for row in committed} == {0, 1, 2}


async def _timed_out(store: MemoryStore, match_id: str) -> bool:
    """Whether any seat of the match has timed out."""
    return any(row.type == "seat_timed_out" for row in await store.load(match_id))


async def test_a_timer_that_wakes_early_does_not_time_a_seat_out_before_its_deadline(monkeypatch):
    """Given a one-second clock and the event loop's timer waking before the wall clock reaches
    the deadline (it runs on the monotonic clock, which drifts from the wall clock), then the
    runner looks at the wall clock again and times the seat out no earlier than its deadline.
    (This one runs on the wall clock: it is about the runner's real timer against it.)"""
    woken = bots_module._woken

    async def early(wake: asyncio.Event, seconds: float) -> bool:
        return await woken(wake, seconds * 0.5)

    monkeypatch.setattr(bots_module, "_woken", early)
    store = MemoryStore()
    service = MatchService(store, seeds=counted_seeds("early-timer"))
    runner = BotRunner(service, bot_delay=0)
    match_id, tokens = await road(service, [None, None], turn_seconds=1)
    deadline = (await service.view(match_id, tokens[0])).deadline
    runner.poke(match_id)
    try:
        await wait_for(lambda: _timed_out(store, match_id), seconds=10)
    finally:
        await runner.stop()
    outs = [row for row, e in await events_of(store, match_id)
            if type(e).__name__ == "SeatTimedOut"]
    assert outs and all(row.recorded_at >= deadline for row in outs)
