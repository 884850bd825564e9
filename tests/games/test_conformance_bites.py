"""The conformance checks bite: a real rulebook wrapped with one deliberate flaw fails them.

Each test wraps a real rulebook (each game of the domain package, its latest version) with one
flaw through dataclasses.replace: an observer showing the next seat's view, a log saying private
lines aloud, a decide drawing its own randomness, an evolve that drops an event. It calls the
suite's check functions directly: each must report problems on the flawed rulebook (and none
on the real one).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

import pytest

from domain.core import match
from domain.core.decider import LogEntry, Rulebook
from domain.core.rng import Rng
from domain.games import GAMES
from tests.games import conformance
from tests.games.conformance import in_domain, random_match

REAL = sorted((book for book in GAMES.values() if in_domain(book)), key=lambda b: b.id)
BOOKS = pytest.mark.parametrize("game", REAL, ids=lambda book: book.id)
INDEXES = range(4)


def leaky(game: Rulebook) -> Rulebook:
    """Each seat is shown the next seat's view (its hand, its pending card) instead of its own."""

    def observe(state: Any, seat: int | None) -> Any:
        """The next seat's view."""
        table = getattr(state, "seats", None) or getattr(state, "players", None)
        if seat is None or not table:
            return game.observe(state, seat)
        return game.observe(state, (seat + 1) % len(table))

    return dataclasses.replace(game, observe=observe)


def public_only(game: Rulebook) -> Rulebook:
    """A seat's view made from the spectator's is the spectator's, its own part never added."""
    return dataclasses.replace(game, observe_over=lambda state, public, seat: public)


def telling(game: Rulebook) -> Rulebook:
    """Every private log line is written to the public log as well."""

    def log_entries(before: Any, event: Any) -> list[LogEntry]:
        """The real lines, each private one also said aloud."""
        lines = game.log_entries(before, event)
        return lines + [LogEntry(text=line.text) for line in lines if line.seat is not None]

    return dataclasses.replace(game, log_entries=log_entries)


def nondeterministic(game: Rulebook) -> Rulebook:
    """decide draws from fresh operating-system randomness instead of the match's generator."""

    def decide_steps(state: Any, seat: int, command: Any, rng: Rng) -> Any:
        """The real rules with a generator nobody can re-run."""
        return game.decide_steps(state, seat, command, Rng(os.urandom(32)))

    return dataclasses.replace(game, decide_steps=decide_steps)


def forgetful(game: Rulebook, index: int) -> Rulebook:
    """evolve drops every event of one kind: the first kind a command of the match produced."""
    batches = conformance.batches(game, random_match(game, index))
    kind = type(next(b.events[0] for b in batches if isinstance(b.before, match.Table)))

    def evolve(state: Any, event: Any) -> Any:
        """The real record, except that one kind of event is forgotten."""
        return state if type(event) is kind else game.evolve(state, event)

    return dataclasses.replace(game, evolve=evolve)


@BOOKS
def test_the_real_rulebook_passes_the_checks_the_flawed_ones_fail(game):
    played = random_match(game, 0)
    assert conformance.check_leaks(game, played) == []
    assert conformance.check_determinism(game, 0) == []
    assert conformance.check_play(game, 0) == []


@BOOKS
def test_the_leak_check_fails_on_an_observer_that_shows_the_next_seats_view(game):
    flawed = leaky(game)
    assert any(conformance.check_leaks(flawed, random_match(flawed, i)) for i in INDEXES)


@BOOKS
def test_the_shared_views_check_fails_when_a_seat_is_shown_only_the_spectators_view(game):
    played = random_match(game, 0)
    assert conformance.check_shared_views(game, played) == []
    assert conformance.check_shared_views(public_only(game), played)


@BOOKS
def test_the_leak_check_fails_on_a_log_that_says_private_lines_aloud(game):
    flawed = telling(game)
    found = [p for i in INDEXES for p in conformance.check_leaks(flawed, random_match(flawed, i))]
    assert any(" reads " in problem for problem in found)


@BOOKS
def test_the_determinism_and_export_checks_fail_on_a_decide_with_its_own_randomness(game):
    flawed = nondeterministic(game)
    assert any(conformance.check_determinism(flawed, i) for i in INDEXES)
    assert any(conformance.check_export(game, random_match(flawed, i)) for i in INDEXES)


@BOOKS
def test_the_play_and_replay_checks_fail_on_an_evolve_that_drops_an_event(game):
    flawed = forgetful(game, 0)
    assert conformance.check_play(flawed, 0)
    assert conformance.check_replay(flawed, random_match(game, 0))
