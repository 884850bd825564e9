"""The Rater's passes (service/ratings.py) without a database: what it heard of survives a
failed pass, and a pass without news asks nothing."""

from __future__ import annotations

from typing import Any

import pytest

from service.ratings import Rater


class Flaky:
    """A rating service whose first pass fails as a database away would."""

    def __init__(self) -> None:
        self.rated: list[list[str]] = []
        self.failing = True

    async def rate_among(self, match_ids: list[str]) -> int:
        """Fail once, then record which matches were asked about."""
        if self.failing:
            self.failing = False
            raise ConnectionError("the database is away")
        self.rated.append(match_ids)
        return len(match_ids)


def rater_over(service: Flaky) -> Rater:
    """A rater over the flaky service (only its heard path is used)."""
    fake: Any = service
    return Rater(fake, 60)


async def test_a_match_heard_before_a_failed_pass_is_rated_on_the_next() -> None:
    """Given m1 heard and the pass failing, when m2 is heard and a pass succeeds, then both are
    looked at: the failure lost nothing."""
    service = Flaky()
    rater = rater_over(service)
    rater.heard("m1", 7)
    with pytest.raises(ConnectionError):
        await rater.sweep(catch_up=False)
    rater.heard("m2", 3)
    await rater.sweep(catch_up=False)
    assert service.rated == [["m1", "m2"]]


async def test_a_pass_forgets_what_it_rated() -> None:
    """Once looked at, a match is not asked about again until heard again."""
    service = Flaky()
    service.failing = False
    rater = rater_over(service)
    rater.heard("m1", 7)
    await rater.sweep(catch_up=False)
    await rater.sweep(catch_up=False)
    assert service.rated == [["m1"], []]
