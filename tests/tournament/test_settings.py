"""Settings a tournament cannot run with are refused with a message naming the problem."""

from __future__ import annotations

import pytest

from domain.tournament import TournamentError, check_settings, rounds_total
from tests.tournament.scripted import people, settings


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (settings("round-robin", table_size=7), "table_size 7 is outside the game's 2 to 6 seats"),
        (settings("round-robin", table_size=1), "table_size 1 is outside"),
        (settings("single-elimination", table_size=4),
         "single-elimination pairs 2-seat tables, not 4; use swiss or round-robin"),
        (settings("swiss", rounds=0), "rounds must be 1 to 64"),
        (settings("swiss", rounds=65), "rounds must be 1 to 64"),
        (settings("swiss", seeding="standing"), "seeding applies to single-elimination only"),
        (settings("single-elimination", rounds=1),
         "single-elimination plays the rounds its bracket needs; leave rounds out"),
        (settings("swiss", turn_seconds=0), "turn_seconds must be 1 to 86400"),
    ],
)
def test_settings_outside_the_rules_are_refused_by_name(rules, message):
    """Given settings breaking one rule, when checked against a 2-6 seat game, then the error
    names it."""
    with pytest.raises(TournamentError, match=message):
        check_settings(rules, 2, 6)


def test_sound_settings_pass_the_check():
    """Given each format at a size it plays, then check_settings accepts it."""
    for rules in (settings("round-robin", table_size=4), settings("swiss", rounds=3),
                  settings("swiss", table_size=4),
                  settings("single-elimination", seeding="standing", turn_seconds=30)):
        check_settings(rules, 2, 6)


@pytest.mark.parametrize(
    ("rules", "count", "total"),
    [
        (settings("round-robin"), 6, 5),
        (settings("round-robin"), 7, 7),
        (settings("round-robin", table_size=3), 9, 4),
        (settings("round-robin", table_size=4), 10, 3),
        (settings("swiss"), 12, 4),
        (settings("swiss"), 17, 5),
        (settings("swiss", rounds=3), 12, 3),
        (settings("swiss", table_size=3), 9, 2),
        (settings("swiss", table_size=3), 10, 3),
        (settings("swiss", table_size=4), 16, 2),
        (settings("swiss", table_size=4), 17, 3),
        (settings("single-elimination"), 6, 3),
        (settings("single-elimination"), 8, 3),
        (settings("single-elimination"), 9, 4),
    ],
)
def test_each_format_has_its_natural_count_of_rounds(rules, count, total):
    """Given a format and a count of entrants, then rounds_total is the documented count."""
    assert rounds_total(rules, people(count)) == total


@pytest.mark.parametrize(
    ("rules", "count", "message"),
    [
        (settings("swiss"), 1, "needs at least 2 entrants, it has 1"),
        (settings("round-robin", table_size=4), 3, "needs at least 4 entrants, it has 3"),
        (settings("swiss", rounds=6), 6, "swiss with 6 entrants has at most 5 rounds, not 6"),
        (settings("round-robin", rounds=6), 6, "at most 5 rounds, not 6"),
        (settings("round-robin", table_size=3, rounds=5), 9, "at most 4 rounds, not 5"),
        (settings("single-elimination", rounds=4), 8, "plays 3 rounds, not 4"),
        (settings("single-elimination", rounds=1), 8, "plays 3 rounds, not 1"),
    ],
)
def test_too_few_entrants_or_too_many_rounds_are_refused(rules, count, message):
    """Given a count of entrants the settings cannot hold, then rounds_total says why."""
    with pytest.raises(TournamentError, match=message):
        rounds_total(rules, people(count))


def test_entrants_gone_before_round_one_do_not_count():
    """Given 5 entrants of whom one withdrew before round 1, then Swiss has ceil(log2 4) rounds."""
    assert rounds_total(settings("swiss"), people(5, withdrawn={2: 0})) == 2
