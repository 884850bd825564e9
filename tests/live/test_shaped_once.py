"""A seat's view and legal actions at a version are shaped once in the process that played the
command: its answer and its seat's stream share them (service.views.Shaped), and both stay byte
for byte what a process shaping them apart sends (its own service and hub on the same store).

Every match is dealt from counted_seeds(DEALS) and played by a seeded ``random.Random``."""

from __future__ import annotations

import asyncio
import collections
import random
from typing import Any

import msgspec
import pytest

from domain.core import match
from domain.core.codec import encode
from service import schemas, views
from service.live.hub import Hub, follow
from service.matches import MatchService
from tests.core.sources import counted_seeds
from tests.live.test_live_fanout import QUIET, CountingStore, collect

DEALS = "shaped-once"
SEATS: list[int | None] = [0, 1, None]


class Played(msgspec.Struct, kw_only=True):
    """A match played in one process and followed in it and in another: every answer, what
    each follower was sent here and there, and the service of the other process."""

    answers: list[tuple[int, bytes]]
    here: list[list[Any]]
    there: list[list[Any]]
    other: MatchService
    match_id: str
    holding: int  # how many of the playing process's feed's changes held views at the end
    started: int  # the match's version once started, before the first command


async def play(
    commands: int, turn_seconds: int | None = None, ids: bool = True, apart: bool = True,
    game: str = "wick-and-ember", time_outs: bool = False,
) -> Played:
    """Open a two-seat match of ``game``, follow it by both seats and a spectator in the playing
    process (and in another one if ``apart``), play ``commands`` random legal commands (with
    command ids if ``ids``) from each mover's last answer or stream update, as a one-request
    client does; with ``time_outs`` every third one is the server's time-out for the mover
    instead (its default action, as when its turn clock runs out)."""
    ours, theirs = CountingStore(), CountingStore()
    theirs._matches = ours._matches  # one database, two processes' connections to it
    service, hub = MatchService(ours, seeds=counted_seeds(DEALS)), Hub()
    other, other_hub = MatchService(theirs), Hub()
    created = await service.create(schemas.CreateMatch(game=game, seats=2,
                                                       turn_seconds=turn_seconds))
    tokens = [(await service.join(created.match_id, schemas.JoinSeat(name=f"P{n}"))).token or ""
              for n in range(2)]
    await service.start(created.match_id, created.host_token)
    loaded = await service.cache.load(created.match_id)
    here: list[list[Any]] = [[] for _ in SEATS]
    there: list[list[Any]] = [[] for _ in SEATS] if apart else []
    processes = ((service, hub), (other, other_hub)) if apart else ((service, hub),)
    streams = [follow(s, h, loaded, seat, 0, QUIET) for s, h in processes for seat in SEATS]
    arrived = asyncio.Event()
    tasks = [asyncio.create_task(collect(s, g, 10**9, arrived))
             for s, g in zip(streams, here + there)]
    rng, answers, version = random.Random(3), [], loaded.version
    for n in range(commands):
        while any(not got or got[-1].version < version for got in here + there):
            arrived.clear()
            await arrived.wait()
        offers = [here[seat][-1].update().actions or [] for seat in (0, 1)]
        seat = rng.choice([s for s in (0, 1) if offers[s]])
        if time_outs and n % 3 == 2:
            now = await service.cache.load(created.match_id)
            timed_out = match.time_out(now.game, now.state, seat)
            version = await service.act_for(created.match_id, None, timed_out, version)
        else:
            body = schemas.SendCommand(command=rng.choice(offers[seat]).command,
                                       command_id=f"c{n}" if ids else None)
            answers.append(await service.command(created.match_id, tokens[seat], body))
            version = msgspec.json.decode(answers[-1][1])["version"]
        other_hub.publish(created.match_id, version)  # the announcement the other one hears
    while any(got[-1].version < version for got in here + there):
        arrived.clear()
        await arrived.wait()
    holding = sum(change.shaped is not None for change in hub._feeds[created.match_id].changes)
    for task in tasks:
        task.cancel()
    return Played(answers=answers, here=here, there=there, other=other,
                  match_id=created.match_id, holding=holding, started=loaded.version)


async def answered_afresh(played: Played, seat: int) -> bytes:
    """The answer the other process shapes apart for the seat at the match's latest version."""
    loaded = await played.other.cache.load(played.match_id)
    return encode(schemas.CommandAnswer(game=loaded.row.game, version=loaded.version,
                                        view=views.match_view(loaded, seat),
                                        actions=views.actions(loaded, seat)))


@pytest.mark.parametrize(("game", "ids"), [("wick-and-ember", True), ("wick-and-ember", False),
                                           ("deathwick", True)])
async def test_the_movers_view_and_actions_are_shaped_once_for_its_answer_and_its_stream(
    monkeypatch: pytest.MonkeyPatch, game: str, ids: bool,
):
    """Given both seats and a spectator following a match in the process that plays it, when
    twelve commands are played (with command ids, or without), then each viewer's view and each
    seat's legal actions at each version are shaped once, the answer's and the stream's alike,
    and only the feed's newest change still holds them (the others keep their JSON alone)."""
    shaped: collections.Counter[tuple[str, int, int | None]] = collections.Counter()
    seat_view, actions = views.seat_view, views.actions

    def counted_view(public: Any, loaded: Any, seat: int | None) -> Any:
        shaped["view", loaded.version, seat] += 1
        return seat_view(public, loaded, seat)

    def counted_actions(loaded: Any, seat: int) -> Any:
        shaped["actions", loaded.version, seat] += 1
        return actions(loaded, seat)

    monkeypatch.setattr(views, "seat_view", counted_view)
    monkeypatch.setattr(views, "actions", counted_actions)
    played = await play(12, ids=ids, apart=False, game=game)

    assert len(played.answers) == 12 and all(status == 200 for status, _ in played.answers)
    assert len(shaped) > 12 * 5 and max(shaped.values()) == 1, shaped.most_common(3)
    assert played.holding == 1


@pytest.mark.parametrize(("game", "ids"), [("wick-and-ember", True), ("wick-and-ember", False),
                                           ("deathwick", True)])
async def test_every_answer_and_stream_is_what_a_process_shaping_apart_sends(game: str, ids: bool):
    """Given both seats and a spectator following a match in the process that plays it and in
    another one, when twelve commands are played, then every follower here is sent exactly
    what its counterpart there is sent, and the last answer is the one shaped there (Deathwick:
    a game whose seats' boards are made over the spectator's)."""
    played = await play(12, ids=ids, game=game)

    for mine, theirs in zip(played.here, played.there, strict=True):
        assert [u.data for u in mine] == [u.data for u in theirs]
    last = msgspec.json.decode(played.answers[-1][1])
    assert played.answers[-1][1] == await answered_afresh(played, last["view"]["seat"])


async def test_with_a_turn_clock_the_answer_and_the_streams_are_what_a_process_apart_shapes():
    """Given a match with a turn clock (its deadlines run from each append's recorded time, not
    the time the answer was first shaped), when eight commands are played, then every follower
    here is sent what its counterpart in another process is sent, and the last answer is the
    one that process shapes for the mover."""
    played = await play(8, turn_seconds=60)

    for mine, theirs in zip(played.here, played.there, strict=True):
        assert [u.data for u in mine] == [u.data for u in theirs]
    last = msgspec.json.decode(played.answers[-1][1])
    assert last["view"]["deadlines"]
    assert played.answers[-1][1] == await answered_afresh(played, last["view"]["seat"])


@pytest.mark.parametrize(("game", "time_outs"), [("wick-and-ember", False),
                                                 ("wick-and-ember", True), ("deathwick", False)])
async def test_the_playing_process_folds_no_committed_event_again(
    monkeypatch: pytest.MonkeyPatch, game: str, time_outs: bool,
):
    """Given both seats and a spectator following a match in the process that plays it, when
    twelve commands are played (every third a server's time-out, or none), then no event after
    the start is folded again there: its feed takes each command's states as the rules gave them
    (match.decide_each), and each follower still gets every version."""
    folded: list[int] = []
    evolve = match.evolve

    def counted(rules: Any, state: Any, event: Any) -> Any:
        folded.append(0 if state is None else state.version)
        return evolve(rules, state, event)

    monkeypatch.setattr(match, "evolve", counted)
    played = await play(12, apart=False, game=game, time_outs=time_outs)

    assert [version for version in folded if version >= played.started] == []
    assert all(got[-1].version > played.started + 12 for got in played.here)
    assert folded  # the feed's opening read was folded, as any read is


async def test_a_servers_time_out_is_sent_as_a_process_shaping_apart_sends_it():
    """Given both seats and a spectator following a match here and in another process, when
    twelve commands are played, every third the server's time-out for the mover (its log line
    names the seat from the state before it), then every follower here is sent exactly what its
    counterpart there is sent."""
    played = await play(12, turn_seconds=60, time_outs=True)

    for mine, theirs in zip(played.here, played.there, strict=True):
        assert [u.data for u in mine] == [u.data for u in theirs]
    assert any("timed out" in u.data for u in played.here[2])
