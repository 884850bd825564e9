"""A tournament the sweep cannot settle is tried and logged ever more rarely, not every pass.

Issue #36 defect 1 logged 8,674 lines in about 25 minutes: the sweep met the same refusal (a
round that cannot be paired, a 409) every pass and logged it each time. The sweep now backs such
a refusal off (``Retry``) and only a revision clash, which another writer resolves, is looked at
again on the next pass. Driven here by a stepped clock, with no server and no sleep.
"""

from __future__ import annotations

import logging
from itertools import pairwise

from service.errors import ServiceError
from service.tournament.rounds import TournamentSweep

TOURNAMENT = "t-stuck"
REFUSAL = "round 3 cannot be paired: 1 entrant left to pair at tables of 2"


class Stepped:
    """A clock in seconds that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Stuck:
    """Rounds (and their store and service) over one running tournament that settle always
    refuses, as a round that cannot be paired is refused; counts the tries."""

    def __init__(self, refusal: ServiceError) -> None:
        self.refusal, self.tries = refusal, 0
        self.store = self.service = self

    async def needing_sweep(self) -> list[str]:
        """The one tournament, running and wanting settling."""
        return [TOURNAMENT]

    async def watching_idle(self) -> list[tuple[str, float]]:
        """No tournament watches idle seats here."""
        return []

    async def held(self, tournament_id: str) -> str:
        """The tournament as read (its id stands for it)."""
        return tournament_id

    async def settle(self, held: str) -> str:
        """Refuse, every time."""
        self.tries += 1
        raise self.refusal


async def swept(refusal: ServiceError, passes: int, caplog) -> tuple[Stuck, list[float]]:
    """Sweep ``passes`` times a second apart; the rounds and the times of the lines logged."""
    clock, stuck = Stepped(), Stuck(refusal)
    sweep = TournamentSweep(stuck, interval=1.0, now=clock)  # type: ignore[arg-type]
    logged: list[float] = []
    with caplog.at_level(logging.INFO, logger="hearthlog.tournaments"):
        for second in range(passes):
            clock.now = float(second)
            before = len(caplog.records)
            await sweep.sweep()
            logged += [clock.now] * (len(caplog.records) - before)
    return stuck, logged


async def test_a_tournament_the_sweep_cannot_settle_is_logged_ever_more_rarely(caplog):
    """Given a running tournament whose next round cannot be paired (409), when the sweep
    passes every second for an hour of a stepped clock, then it tries at 0, 1, 3, 7, 15 s and every
    10 s after (363 times: a back-off doubling from the interval, capped), and logs 60 lines in the hour,
    a minute apart, instead of 3,600 (each naming the refusal, the later ones counting the
    failures left out)."""
    stuck, logged = await swept(ServiceError(409, REFUSAL), 3600, caplog)
    assert len(logged) <= 3600 // 60 + 1
    assert stuck.tries <= 3600 // 10 + 4
    assert all(later - earlier >= 60 for earlier, later in pairwise(logged))
    assert all(REFUSAL in r.getMessage() for r in caplog.records)
    assert "more failures since the last such line" in caplog.records[-1].getMessage()


async def test_a_revision_clash_is_looked_at_again_on_the_next_pass(caplog):
    """Given a tournament another writer keeps changing first (its clash, the 409 a retry
    resolves), when the sweep passes every second for a minute, then it looks every pass (no
    back-off: the next read sees the other writer's change)."""
    clash = ServiceError(409, f"tournament {TOURNAMENT} changed meanwhile (another request "
                         "was written first); read it again and retry")
    stuck, _ = await swept(clash, 60, caplog)
    assert stuck.tries == 60
