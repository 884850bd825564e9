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
    lot,
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


def test_a_bye_is_worth_a_win_and_counts_a_virtual_opponent_with_ones_own_score():
    """Given 3 entrants and one round (Ash beats Bryn, Cato's bye), then Cato has 1 point, played
    0, byes 1 and Buchholz 1 (a virtual opponent with its own 1 point, FIDE C.07 16.4); Ash's
    Buchholz is Bryn's 0."""
    history = [RoundRecord(
        pairing=Pairing(round=1, tables=[Table(number=1, seats=[0, 1])], byes=[2]),
        results=[TableResult(round=1, table=1, placements=[1, 2])],
    )]

    table = {s.entrant: s for s in standings(settings("swiss"), WINTER_CUP, people(3), history)}

    assert (table[2].points, table[2].played, table[2].byes) == (1, 0, 1)
    assert table[2].tiebreaks["buchholz"] == 1 and table[0].tiebreaks["buchholz"] == 0
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


def test_a_withdrawn_opponents_missed_rounds_count_as_draws_in_buchholz():
    """Given Bryn beating Ash in round 1 and withdrawing, Ash then beating Cato in round 2,
    then Ash's Buchholz counts Bryn at 1 + 1/2 (its missed round a draw, FIDE C.07 16.3) plus
    Cato's 1 (a win over Dell in round 1), and Cut-1 drops the lower of the two."""
    entrants = people(4, withdrawn={1: 1})
    history = [
        RoundRecord(pairing=Pairing(round=1, byes=[], tables=[Table(number=1, seats=[0, 1]),
                                                             Table(number=2, seats=[2, 3])]),
                    results=[TableResult(round=1, table=1, placements=[2, 1]),
                             TableResult(round=1, table=2, placements=[1, 2])]),
        RoundRecord(pairing=Pairing(round=2, byes=[3], tables=[Table(number=1, seats=[0, 2])]),
                    results=[TableResult(round=2, table=1, placements=[1, 2])]),
    ]
    rules = settings("swiss", tiebreaks=["buchholz", "buchholz_cut1", "wins"])

    table = {s.entrant: s for s in standings(rules, WINTER_CUP, entrants, history)}

    assert table[0].tiebreaks == {"buchholz": Fraction(5, 2), "buchholz_cut1": Fraction(3, 2),
                                  "wins": 1}


def test_a_forfeit_win_is_no_win_and_no_game_played():
    """Given Ash winning round 1 by Bryn's forfeit, then Ash has 1 point, 0 games played, 0
    wins, and Buchholz of a virtual opponent with its own 1 point."""
    history = [RoundRecord(
        pairing=Pairing(round=1, tables=[Table(number=1, seats=[0, 1])], byes=[]),
        results=[TableResult(round=1, table=1, placements=[1, 2], forfeited=[1])])]
    rules = settings("swiss", tiebreaks=["wins", "buchholz"])

    ash = standings(rules, WINTER_CUP, people(2), history)[0]

    assert (ash.entrant, ash.points, ash.played) == (0, 1, 0)
    assert ash.tiebreaks == {"wins": 0, "buchholz": 1}


def test_direct_encounter_separates_two_tied_who_met():
    """Given Ash beating Bryn, then both ending on 1 point, with direct encounter the only
    tie-break, then Ash ranks above Bryn although the lot puts Bryn first."""
    history = [
        RoundRecord(pairing=Pairing(round=1, byes=[], tables=[Table(number=1, seats=[0, 1]),
                                                             Table(number=2, seats=[2, 3])]),
                    results=[TableResult(round=1, table=1, placements=[1, 2]),
                             TableResult(round=1, table=2, placements=[1, 2])]),
        RoundRecord(pairing=Pairing(round=2, byes=[], tables=[Table(number=1, seats=[0, 2]),
                                                             Table(number=2, seats=[1, 3])]),
                    results=[TableResult(round=2, table=1, placements=[2, 1]),
                             TableResult(round=2, table=2, placements=[1, 2])]),
    ]
    entrants, rules = people(4), settings("swiss", tiebreaks=["direct_encounter"])
    assert lot(WINTER_CUP, entrants)[1] < lot(WINTER_CUP, entrants)[0]

    ranked = [s.entrant for s in standings(rules, WINTER_CUP, entrants, history)]

    assert ranked.index(0) < ranked.index(1)
