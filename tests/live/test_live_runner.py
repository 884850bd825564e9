"""The bot runner in process: a notification about a state this process holds costs no read."""

from __future__ import annotations

from typing import Any

from service import schemas
from service.live.bots import BotRunner
from service.matches import MatchService
from service.store.memory import MemoryStore


class CountingStore(MemoryStore):
    """The memory store, counting the reads a match load makes."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def get_match(self, match_id: str) -> Any:
        """Count, then read."""
        self.reads += 1
        return await super().get_match(match_id)


async def started(service: MatchService, bots: list[str | None]) -> tuple[str, int]:
    """A started 2-seat match, its seats taken by these bots (None: a person); its version."""
    created = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
    for n, bot in enumerate(bots):
        await service.join(created.match_id, schemas.JoinSeat(name=f"P{n}", bot=bot))
    start = await service.start(created.match_id, created.host_token)
    return created.match_id, start.version


async def test_a_notification_of_its_own_append_that_owes_no_move_reads_nothing() -> None:
    """Given a match of two people this process started, when its notification arrives, then
    the runner reads nothing, starts nothing, and remembers the match never needs a move."""
    store = CountingStore()
    service = MatchService(store)
    match_id, version = await started(service, [None, None])
    runner = BotRunner(service, bot_delay=3600)
    reads = store.reads

    runner.poke(match_id, version)

    assert store.reads == reads and not runner._tasks and match_id in runner._never


async def test_a_notification_this_process_cannot_vouch_for_is_looked_at() -> None:
    """Given a match with a bot to act, or a version this process has not seen, then the runner
    starts a task that loads the match."""
    service = MatchService(CountingStore())
    with_bot, version = await started(service, ["random", "random"])
    people, later = await started(service, [None, None])
    runner = BotRunner(service, bot_delay=3600)

    runner.poke(with_bot, version)
    runner.poke(people, later + 1)

    assert set(runner._tasks) == {with_bot, people}
    await runner.stop()
