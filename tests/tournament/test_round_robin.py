"""Round robin: the circle at 2 seats, rotated seats at larger tables, withdrawals, the end."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from domain.tournament import RoundRecord, TournamentError, pair_round
from tests.tournament.scripted import (
    lower_number_wins,
    people,
    random_outcome,
    record,
    run,
    seed_of,
    settings,
)


def meetings(history) -> Counter:
    """How often each pair of entrants sat at one table."""
    return Counter(
        frozenset(pair)
        for r in history
        for t in r.pairing.tables
        for pair in itertools.combinations(t.seats, 2)
    )


@pytest.mark.parametrize("count", range(2, 22))
def test_every_pair_meets_exactly_once_and_sits_first_half_the_time(count):
    """Given n entrants at 2-seat tables, when every round is played, then each pair met once,
    an odd count gave each entrant one bye, and each sat first in half its games (one more or
    one fewer)."""
    history = run(settings("round-robin"), seed_of(count), people(count), lower_number_wins)

    assert set(meetings(history).values()) == {1}
    assert len(meetings(history)) == count * (count - 1) // 2
    byes = Counter(n for r in history for n in r.pairing.byes)
    assert byes == (Counter(range(count)) if count % 2 else Counter())
    first = Counter(t.seats[0] for r in history for t in r.pairing.tables)
    games = count - 1
    assert all(games // 2 <= first[n] <= (games + 1) // 2 for n in range(count))


def test_a_withdrawn_entrants_scheduled_opponent_has_a_bye():
    """Given 6 entrants and entrant 2 withdrawn after round 2, then from round 3 entrant 2 is
    nowhere and, each round, the one the circle set against it has a bye instead."""
    rules, seed = settings("round-robin"), seed_of(6)
    full = run(rules, seed, people(6), lower_number_wins)
    gone = run(rules, seed, people(6, withdrawn={2: 2}), lower_number_wins)

    for before, after in zip(full[2:], gone[2:], strict=True):
        opponent = next(n for t in before.pairing.tables if 2 in t.seats for n in t.seats if n != 2)
        assert after.pairing.byes == [opponent]
        assert all(2 not in t.seats for t in after.pairing.tables)
    assert [r.pairing for r in full[:2]] == [r.pairing for r in gone[:2]]


def test_pairing_past_the_last_round_or_before_a_result_is_refused():
    """Given a finished 4-entrant round robin, then a fourth round is refused; given round 1
    with a table unfinished, then round 2 is refused naming the table."""
    rules, seed, entrants = settings("round-robin"), seed_of(4), people(4)
    history = run(rules, seed, entrants, lower_number_wins)

    with pytest.raises(TournamentError, match="the tournament has 3 rounds; all are paired"):
        pair_round(rules, seed, entrants, history)
    partial = RoundRecord(pairing=history[0].pairing, results=history[0].results[:1])
    with pytest.raises(TournamentError, match="round 1, table 2 has no result yet"):
        pair_round(rules, seed, entrants, [partial])


def test_nine_entrants_at_three_seat_tables_meet_everyone_once_in_four_rounds():
    """Given 9 entrants at 3-seat tables, when its 4 rounds are played, then every pair met
    exactly once (an affine plane: no repeat was forced)."""
    for index in range(4):
        history = run(settings("round-robin", table_size=3), seed_of(index), people(9),
                      random_outcome(index))

        assert len(history) == 4
        assert set(meetings(history).values()) == {1}
        assert len(meetings(history)) == 36


@pytest.mark.parametrize(("count", "size"), [(9, 3), (12, 3), (12, 4), (16, 4), (25, 5)])
def test_seats_at_larger_tables_are_rotated_within_a_spread_of_two(count, size):
    """Given n entrants at k-seat tables over the natural rounds, then each entrant's most-sat
    and least-sat seat differ by at most 2, and every table is full."""
    for index in range(3):
        history = run(settings("round-robin", table_size=size), seed_of(index), people(count),
                      random_outcome(index))
        sat = Counter((n, seat) for r in history for t in r.pairing.tables
                      for seat, n in enumerate(t.seats))

        for n in range(count):
            counts = [sat[(n, seat)] for seat in range(size)]
            assert max(counts) - min(counts) <= 2, (n, counts)
        assert all(len(t.seats) == size for r in history for t in r.pairing.tables)


def test_spare_entrants_at_larger_tables_take_byes_in_turn():
    """Given 10 entrants at 3-seat tables (one spare a round), then its 5 rounds give 5
    different entrants a bye and everyone else one seat."""
    history = run(settings("round-robin", table_size=3), seed_of(3), people(10), random_outcome(3))

    byes = [n for r in history for n in r.pairing.byes]
    assert len(byes) == len(set(byes)) == 5
    for r in history:
        seated = [n for t in r.pairing.tables for n in t.seats] + r.pairing.byes
        assert sorted(seated) == list(range(10))


def test_larger_tables_make_fewer_repeat_meetings_than_the_first_grouping_alone():
    """Given 16 entrants at 4-seat tables over 5 rounds, then no pair meets more than twice and
    at most 8 repeat meetings are made (each round could repeat 24)."""
    for index in range(3):
        history = run(settings("round-robin", table_size=4), seed_of(index), people(16),
                      random_outcome(index))
        met = meetings(history)

        assert max(met.values()) <= 2
        assert sum(c - 1 for c in met.values()) <= 8


def test_a_table_records_its_round_and_number():
    """Given any round, then its tables are numbered 1, 2, ... in order."""
    pairing = pair_round(settings("round-robin", table_size=3), seed_of(1), people(9), [])
    assert [t.number for t in pairing.tables] == [1, 2, 3]
    assert record(pairing, lower_number_wins).results[0].round == 1
