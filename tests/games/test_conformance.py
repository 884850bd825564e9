"""Every registered (game, rules version) against the conformance checks (docs/conformance.md).

Parametrized over domain.registry.rulebooks() when the session starts, so a game registered
from anywhere, a test game included, gets every check by registering.

A sampling test (tests/sampling.py): each run plays a budget of random matches per rulebook
from the run's start seed, each match once, and holds it to every check; `make sample-all`
plays the full volume.
"""

from __future__ import annotations

import pytest

from domain.core.decider import Rulebook
from domain.registry import rulebooks
from tests import sampling
from tests.games import conformance
from tests.games.conformance import random_match

BUDGET = 12  # random matches per rulebook in each run (match k has min_seats + k % span seats)
FULL = 60  # and under `make sample-all`, stretched so every seat count gets FULL_PER_COUNT
FULL_PER_COUNT = 3
CHECKS = (conformance.check_codecs, conformance.check_shared_views, conformance.check_leaks,
          conformance.check_snapshots, conformance.check_export, conformance.check_replay)


def full_volume(book: Rulebook) -> int:
    """A rulebook's `make sample-all` count: FULL, or enough that every seat count from its
    minimum to its maximum gets FULL_PER_COUNT matches."""
    return max(FULL, FULL_PER_COUNT * (book.max_seats - book.min_seats + 1))


def rulebook_id(book: Rulebook) -> str:
    """A test id: game and rules version."""
    return f"{book.id}-v{book.rules_version}"


def every_rulebook() -> list[Rulebook]:
    """Every rulebook registered when the tests are collected."""
    import domain.games  # noqa: F401  (importing registers the games the server plays)

    return rulebooks()


BOOKS = pytest.mark.parametrize("game", every_rulebook(), ids=rulebook_id)  # also test_golden's


@sampling.MARK
@pytest.mark.parametrize(("game", "sample"), [
    pytest.param(book, sample, id=f"{rulebook_id(book)}-{sample}")
    for book in every_rulebook() for sample in sampling.samples(BUDGET, full_volume(book))])
def test_a_random_match_played_once_passes_every_conformance_check(game, sample):
    """Random legal play is accepted and refusals change nothing; the same seed and commands
    give the same event bytes; codecs, leaks, snapshots, export and verify, and replay hold over
    the whole match. The match is played once and every check reads it (determinism plays it
    once more to compare)."""
    index = sampling.index(sample)
    try:
        played = random_match(game, index)
    except Exception as error:  # a broken rulebook may raise anywhere; that is the finding
        pytest.fail(f"match {index} could not be played to its end: {error!r}")
    found = {
        "play": conformance.check_play(game, index, played),
        "determinism": conformance.check_determinism(game, index, played),
        **{check.__name__.removeprefix("check_"): check(game, played) for check in CHECKS},
    }
    assert {name: problems for name, problems in found.items() if problems} == {}, index
