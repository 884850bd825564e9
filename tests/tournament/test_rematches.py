"""Swiss at more than 2 seats, once a rematch cannot be avoided: each round makes no more
repeat meetings than the fewest any grouping of that round could (issue #36, defect 7)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from domain.tournament import pair_round
from domain.tournament.tally import Record, tally
from tests.tournament.scripted import people, random_outcome, record, seed_of, settings


def groupings(items: list[int], size: int) -> Iterator[list[list[int]]]:
    """Every way to split ``items`` into tables of ``size`` (brute force, small counts only)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for others in itertools.combinations(rest, size - 1):
        left = [n for n in rest if n not in others]
        for more in groupings(left, size):
            yield [[first, *others], *more]


def repeats(tables: list[list[int]], records: dict[int, Record]) -> int:
    """The repeat meetings a grouping makes: earlier meetings of every pair seated together."""
    return sum(records[a].met[b] for t in tables for a, b in itertools.combinations(t, 2))


@pytest.mark.parametrize("index", [0, 1, 2])
def test_each_swiss_round_at_3_seats_makes_the_fewest_repeat_meetings_possible(index):
    """Given 12 entrants at 3-seat tables over 7 rounds (rematches unavoidable from round 5),
    when each round is paired, then its repeat meetings equal the fewest of any grouping of
    the 12 into 4 tables (brute force over all 15,400)."""
    rules, entrants = settings("swiss", table_size=3, rounds=7), people(12)
    history, outcome = [], random_outcome(index)
    for _ in range(7):
        pairing = pair_round(rules, seed_of(index), entrants, history)
        records = tally(entrants, history, 3)
        made = repeats([t.seats for t in pairing.tables], records)
        least = min(repeats(g, records) for g in groupings(list(range(12)), 3)) if made else 0
        assert made == least, f"round {pairing.round}: {made} repeat meetings, {least} possible"
        history.append(record(pairing, outcome))
