"""Background work meeting a failure that repeats backs off and logs a bounded number of lines.

A bot whose append the database refuses every time (as a Citus cluster refused the append that
ended a match: issue 32, 79,006 tracebacks in seven minutes) is poked every half second, as a
fast sweep would, for two minutes of a stepped clock. The runner tries it only after a capped
exponential back-off, and logs the failures once per interval with their count.
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg

from service import schemas
from service.background import Retry
from service.live.bots import BotRunner
from service.matches import MatchService
from service.store.memory import MemoryStore

CITUS_REFUSAL = "non-IMMUTABLE functions are not allowed in CASE or COALESCE statements"


class Refusing(MemoryStore):
    """The memory store, whose appends the database refuses while ``refusing`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.refusing, self.tries = False, 0

    async def append(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        """Refuse as Citus did, counting the tries; else append."""
        if self.refusing:
            self.tries += 1
            raise asyncpg.FeatureNotSupportedError(CITUS_REFUSAL)
        return await super().append(*args, **kwargs)


class Stepped:
    """A clock in seconds that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def bot_match(service: MatchService) -> str:
    """A started match of two bots: a bot owes a move at once."""
    created = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
    for bot in ("random", "careful"):
        await service.join(created.match_id, schemas.JoinSeat(bot=bot))
    await service.start(created.match_id, created.host_token)
    return created.match_id


async def poked(runner: BotRunner, match_id: str) -> None:
    """Poke the runner about the match and wait until the task it started (if any) has ended."""
    runner.poke(match_id)
    await asyncio.gather(*list(runner._tasks.values()))


async def test_a_bot_whose_append_keeps_failing_is_backed_off_and_logged_once_a_minute(caplog):
    """Given a bot owing a move whose every append the database refuses, when the runner is
    poked every half second for 120 s of a stepped clock, then it tries at 0, 1, 3, 7, 15 s and
    every 8 s after (a back-off doubling from 1 s, capped at 8), 18 times instead of 240, and
    logs two lines (the first with its traceback, the next a minute later with the count of the
    failures between); once the database accepts the append again, the next poke after the
    back-off makes the move and the back-off starts afresh."""
    store, clock = Refusing(), Stepped()
    service = MatchService(store)
    match_id = await bot_match(service)
    runner = BotRunner(service, bot_delay=0.0,
                       retry=Retry(logging.getLogger("hearthlog.bots"), first=1.0, cap=8.0,
                                   interval=60.0, now=clock))
    store.refusing = True
    tried_at = []
    with caplog.at_level(logging.WARNING, logger="hearthlog.bots"):
        for step in range(240):
            clock.now = step / 2
            before = store.tries
            await poked(runner, match_id)
            if store.tries > before:
                tried_at.append(clock.now)
    lines = [r for r in caplog.records if r.name == "hearthlog.bots"]

    assert tried_at == [0, 1, 3, 7, 15, *range(23, 120, 8)]
    assert len(tried_at) == 18
    assert [r.getMessage() for r in lines] == [
        f"no move made in match {match_id}",
        f"no move made in match {match_id} (and 9 more failures since the last such line)",
    ]
    assert lines[0].exc_info and CITUS_REFUSAL in str(lines[0].exc_info[1])
    assert runner.retry.failures(match_id) == 18

    store.refusing = False
    clock.now = 119.5  # still backed off since the try at 119
    version = (await service.cache.load(match_id)).version
    await poked(runner, match_id)
    assert (await service.cache.load(match_id)).version == version
    clock.now = 127.0
    await poked(runner, match_id)
    assert (await service.cache.load(match_id)).version > version
    assert runner.retry.failures(match_id) == 0
