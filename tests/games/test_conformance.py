"""Every registered (game, rules version) against the conformance checks (docs/conformance.md).

Parametrized over domain.registry.rulebooks() when the session starts, so a game registered
from anywhere, a test game included, gets every check by registering.
"""

from __future__ import annotations

import pytest

from domain.core.decider import Rulebook
from domain.registry import rulebooks
from tests.games import conformance
from tests.games.conformance import random_match

MATCHES = range(8)  # random matches per rulebook in `make test` (of 2, 3, 4... seats in turn)
SLOW_MATCHES = range(8, 60)  # and more under `make check`
SLOW_PER_COUNT = 3  # and at least this many of every seat count a rulebook allows


def slow_matches(book: Rulebook) -> range:
    """The `make check` match indexes of a rulebook: SLOW_MATCHES, stretched so that every seat
    count from its minimum to its maximum gets SLOW_PER_COUNT matches at least (match i has
    min_seats + i % span seats)."""
    span = book.max_seats - book.min_seats + 1
    return range(SLOW_MATCHES.start, max(SLOW_MATCHES.stop, SLOW_MATCHES.start + 1
                                         + SLOW_PER_COUNT * span))


def rulebook_id(book: Rulebook) -> str:
    """A test id: game and rules version."""
    return f"{book.id}-v{book.rules_version}"


def every_rulebook() -> list[Rulebook]:
    """Every rulebook registered when the tests are collected."""
    import domain.games  # noqa: F401  (importing registers the games the server plays)

    return rulebooks()


BOOKS = pytest.mark.parametrize("game", every_rulebook(), ids=rulebook_id)
CHECKS = pytest.mark.parametrize("check", [
    conformance.check_codecs,
    conformance.check_leaks,
    conformance.check_snapshots,
    conformance.check_export,
    conformance.check_replay,
], ids=lambda check: check.__name__.removeprefix("check_"))


@BOOKS
@pytest.mark.parametrize("index", MATCHES)
def test_random_legal_play_is_accepted_refusals_change_nothing_and_the_match_ends(game, index):
    assert conformance.check_play(game, index) == []


@BOOKS
@pytest.mark.parametrize("index", MATCHES)
def test_the_same_seed_and_commands_give_the_same_event_bytes(game, index):
    assert conformance.check_determinism(game, index) == []


@BOOKS
@CHECKS
@pytest.mark.parametrize("index", MATCHES)
def test_a_random_finished_match_passes_the_check(game, check, index):
    """Codecs, leaks, snapshots, export and verify, replay: each over a whole random match."""
    assert check(game, random_match(game, index)) == []


@pytest.mark.slow
@pytest.mark.parametrize(("game", "index"), [
    pytest.param(book, index, id=f"{rulebook_id(book)}-{index}")
    for book in every_rulebook() for index in slow_matches(book)])
def test_many_more_random_matches_pass_every_check(game, index):
    played = random_match(game, index)
    found = conformance.check_play(game, index) + conformance.check_determinism(game, index)
    for check in (conformance.check_codecs, conformance.check_leaks, conformance.check_snapshots,
                  conformance.check_export, conformance.check_replay):
        found += check(game, played)
    assert found == []
