"""Swiss: round 1 by the lot, byes to the lowest ranked, backtracking before any rematch."""

from __future__ import annotations

from collections import Counter

from domain.tournament import Pairing, RoundRecord, Table, lot, pair_round, standings
from domain.tournament.swiss import pair_swiss
from domain.tournament.tally import tally
from tests.tournament.scripted import (
    lower_number_wins,
    people,
    placed,
    random_outcome,
    record,
    run,
    seed_of,
    settings,
)


def test_round_one_pairs_neighbours_in_the_lot_and_gives_the_last_the_bye():
    """Given 9 entrants, when round 1 is paired, then lot places 1-2, 3-4, ... meet (the better
    placed seated first) and the last in the lot has the bye."""
    seed, entrants = seed_of(9), people(9)
    order = sorted(range(9), key=lot(seed, entrants).__getitem__)

    pairing = pair_round(settings("swiss"), seed, entrants, [])

    assert [t.seats for t in pairing.tables] == [order[i : i + 2] for i in range(0, 8, 2)]
    assert pairing.byes == [order[8]]


def test_the_bye_passes_to_the_lowest_ranked_who_has_not_had_one():
    """Given 5 entrants after two rounds, then round 3's bye goes to the lowest ranked without a
    bye, and the two earlier bye holders are not given another."""
    rules, seed, entrants = settings("swiss", rounds=4), seed_of(5), people(5)
    history = run(settings("swiss", rounds=2), seed, entrants, lower_number_wins)
    had = {n for r in history for n in r.pairing.byes}

    third = pair_round(rules, seed, entrants, history)

    ranked = [s.entrant for s in standings(rules, seed, entrants, history)]
    assert third.byes == [next(n for n in reversed(ranked) if n not in had)]
    assert len(had) == 2


def test_the_search_backtracks_when_the_greedy_choice_forces_a_rematch():
    """Given 6 entrants who met 0-1, 2-3, 4-5, ranked 0..5, when paired, then greedy 0-2, 1-3
    would leave 4-5 again, so the search takes 0-2, 1-4, 3-5."""
    first = Pairing(round=1, byes=[], tables=[Table(number=i + 1, seats=[2 * i, 2 * i + 1])
                                              for i in range(3)])
    history = [record(first, lambda p, t: placed(t, t.seats[0]))]

    pairing = pair_swiss([0, 1, 2, 3, 4, 5], tally(people(6), history, 2), 2)

    assert sorted(sorted(t.seats) for t in pairing.tables) == [[0, 2], [1, 4], [3, 5]]


def test_rematches_are_allowed_only_when_every_pairing_has_one():
    """Given 4 entrants who have all met, when paired again, then a pairing is still made, each
    top entrant meeting the one it met least."""
    rounds = [
        [[0, 1], [2, 3]],
        [[0, 2], [1, 3]],
        [[0, 3], [1, 2]],
        [[0, 1], [2, 3]],
    ]
    history = [
        RoundRecord(pairing=Pairing(round=r + 1, byes=[], tables=[
            Table(number=i + 1, seats=s) for i, s in enumerate(tables)]))
        for r, tables in enumerate(rounds)
    ]
    history = [record(h.pairing, lambda p, t: placed(t, None)) for h in history]

    pairing = pair_swiss([0, 1, 2, 3], tally(people(4), history, 2), 5)

    assert sorted(sorted(t.seats) for t in pairing.tables) == [[0, 2], [1, 3]]


def test_a_withdrawn_entrant_is_not_paired_but_keeps_its_results():
    """Given 8 entrants and entrant 0 withdrawn after round 1, then rounds 2 and 3 seat the other
    7 (one bye each round) and entrant 0 keeps its round 1 point."""
    rules, seed = settings("swiss"), seed_of(8)
    entrants = people(8, withdrawn={0: 1})

    history = run(rules, seed, entrants, lower_number_wins)

    for r in history[1:]:
        seated = sorted([n for t in r.pairing.tables for n in t.seats] + r.pairing.byes)
        assert seated == list(range(1, 8)) and len(r.pairing.byes) == 1
    mine = next(s for s in standings(rules, seed, entrants, history) if s.entrant == 0)
    assert (mine.points, mine.played, mine.withdrawn) == (1, 1, True)


def test_twelve_entrants_over_four_rounds_never_meet_twice_and_alternate_seats():
    """Given 12 entrants and random results, when 4 rounds are played, then nobody meets anyone
    twice and everyone sat first once, twice or three times."""
    for index in range(10):
        history = run(settings("swiss"), seed_of(index), people(12), random_outcome(index))

        met = Counter(frozenset(t.seats) for r in history for t in r.pairing.tables)
        assert len(history) == 4 and set(met.values()) == {1}
        first = Counter(t.seats[0] for r in history for t in r.pairing.tables)
        assert all(1 <= first[n] <= 3 for n in range(12)), first
