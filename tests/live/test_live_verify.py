"""Bots' moves and time-outs are recorded commands: a finished match re-runs and verifies."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from projections.export import decode_export
from service import schemas
from service.clock import Due, next_due
from service.exports import ExportService
from service.live.bots import BotRunner
from service.matches import MatchService
from service.store.memory import MemoryStore


async def test_a_match_of_bots_and_time_outs_exports_and_verifies_clean():
    """Given two bots and a person who never acts and opens round 1 (a practice table, so the
    bots cannot snuff the person before a first turn and leave the clock nothing to do), when
    the bots move and the clock plays for the person each time, then the finished match's
    export re-runs every command and verifies, and it shows the bots and the time-outs."""
    store = MemoryStore()
    service = MatchService(store)
    runner = BotRunner(service, bot_delay=0)
    created = await service.create(
        schemas.CreateMatch(
            game="wick-and-ember",
            seats=3,
            practice=True,
            options={"ember_target": 2, "opener": 2},
            turn_seconds=60,
        )
    )
    match_id = created.match_id
    for body in ({"bot": "careful"}, {"bot": "random"}, {"name": "Ash"}):
        await service.join(match_id, msgspec.convert(body, schemas.JoinSeat))
    await service.start(match_id, created.host_token)
    while (loaded := await service.cache.load(match_id)).row.status != "finished":
        due = next_due(loaded, bot_delay=0) or Due(
            at=datetime.now(UTC), seat=loaded.game.to_act(loaded.state.game)[0], kind="clock"
        )
        assert await runner.act(loaded, due)
    report = await ExportService(store).verification(match_id)
    document = decode_export(await ExportService(store).export(match_id))
    assert report.ok, report.problem
    types = [event.type for event in document.events]
    assert "seat_timed_out" in types
    joins = [msgspec.json.decode(e.data) for e in document.events if e.type == "seat_joined"]
    assert [join.get("bot") for join in joins] == ["careful", "random", None]
