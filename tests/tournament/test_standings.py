"""Standings: byes, withdrawals, larger tables, and their JSON and CSV renderings."""

from __future__ import annotations

import itertools
from fractions import Fraction

from domain.tournament import (
    Pairing,
    RoundRecord,
    Table,
    TableResult,
    bye_points,
    match_points,
    rows,
    standings,
    standings_csv,
)
from tests.tournament.scripted import WINTER_CUP, people, random_outcome, run, seed_of, settings


def test_points_at_any_table_add_up_to_one_per_pair_of_seats():
    """Given random placements at 2 to 6 seats, then the seats' points sum to k(k-1)/2 and a
    lone first place earns k - 1."""
    outcome = random_outcome(5)
    for size in range(2, 7):
        for _ in range(50):
            placements = outcome(None, Table(number=1, seats=list(range(size))))
            total = sum(match_points(placements, s) for s in range(size))
            assert total == Fraction(size * (size - 1), 2)
            if placements.count(1) == 1:
                assert match_points(placements, placements.index(1)) == size - 1


def test_a_bye_is_worth_a_win_and_adds_nothing_to_buchholz():
    """Given 3 entrants and one round (Ash beats Bryn, Cato's bye), then Cato has 1 point, played
    0, byes 1 and Buchholz 0; Ash's Buchholz is Bryn's 0."""
    history = [RoundRecord(
        pairing=Pairing(round=1, tables=[Table(number=1, seats=[0, 1])], byes=[2]),
        results=[TableResult(round=1, table=1, placements=[1, 2])],
    )]

    table = {s.entrant: s for s in standings(settings("swiss"), WINTER_CUP, people(3), history)}

    assert (table[2].points, table[2].played, table[2].byes) == (1, 0, 1)
    assert table[2].tiebreaks["buchholz"] == 0 == table[0].tiebreaks["buchholz"]
    assert bye_points(4) == 3


def test_a_withdrawn_entrants_points_still_count_for_its_opponents():
    """Given Bryn beating Ash then withdrawing, then Ash's Buchholz counts Bryn's point and Bryn
    stays in the standings, marked withdrawn."""
    entrants = people(4, withdrawn={1: 1})
    history = [RoundRecord(
        pairing=Pairing(round=1, byes=[], tables=[Table(number=1, seats=[0, 1]),
                                                   Table(number=2, seats=[2, 3])]),
        results=[TableResult(round=1, table=1, placements=[2, 1]),
                 TableResult(round=1, table=2, placements=[1, 2])],
    )]

    table = {s.entrant: s for s in standings(settings("swiss"), WINTER_CUP, entrants, history)}

    assert table[0].tiebreaks["buchholz"] == 1
    assert table[1].withdrawn and table[1].points == 1 and not table[0].withdrawn


def test_ranks_are_distinct_and_follow_points_first():
    """Given a 12-entrant Swiss with random results, then ranks run 1..12 and points never rise
    down the table."""
    rules, seed, entrants = settings("swiss"), seed_of(4), people(12)
    table = standings(rules, seed, entrants, run(rules, seed, entrants, random_outcome(4)))

    assert [s.rank for s in table] == list(range(1, 13))
    assert all(a.points >= b.points for a, b in itertools.pairwise(table))


def test_rows_and_csv_show_exact_values_as_decimal_strings():
    """Given a 3-seat round robin with ties, then JSON rows and CSV render halves and quarters
    as decimals, and the CSV has one line per entrant after its header."""
    rules, seed, entrants = settings("round-robin", table_size=3), seed_of(2), people(6)
    table = standings(rules, seed, entrants, run(rules, seed, entrants, random_outcome(2)))

    shown = rows(table)
    text = standings_csv(table).splitlines()

    assert [r["points"] for r in shown] == [_decimal(s.points) for s in table]
    assert set(shown[0]["tiebreaks"]) == {"sonneborn_berger", "firsts"}
    assert text[0] == "rank,entrant,name,points,tiebreak_1,tiebreak_2,played,byes,withdrawn"
    assert len(text) == 7 and text[1].startswith(f"1,{table[0].entrant},{table[0].name},")


def _decimal(value: Fraction) -> str:
    """An independent rendering: float formatting is exact for multiples of 1/4."""
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text
