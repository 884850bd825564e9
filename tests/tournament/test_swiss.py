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


def test_round_one_at_three_seat_tables_seats_the_lot_in_threes_and_the_last_have_byes():
    """Given 11 entrants at 3-seat tables, when round 1 is paired, then lot places 1-3, 4-6 and
    7-9 share tables in lot order and the last two in the lot have the byes."""
    seed, entrants = seed_of(11), people(11)
    order = sorted(range(11), key=lot(seed, entrants).__getitem__)

    pairing = pair_round(settings("swiss", table_size=3), seed, entrants, [])

    assert [t.seats for t in pairing.tables] == [order[i : i + 3] for i in range(0, 9, 3)]
    assert pairing.byes == sorted(order[9:])


def test_the_search_backtracks_at_three_seat_tables():
    """Given 9 entrants who met in threes (0-1-2, 3-4-5, 6-7-8, then 0-3-6, 1-4-7, 2-5-8), ranked
    0..8, when paired, then greedy takes 0-4-8 and 1-3 and finds no third for them, so the search
    takes 1-5-6 and 2-3-7."""
    rounds = [[[0, 1, 2], [3, 4, 5], [6, 7, 8]], [[0, 3, 6], [1, 4, 7], [2, 5, 8]]]
    history = [
        record(Pairing(round=r + 1, byes=[], tables=[Table(number=i + 1, seats=s)
                                                    for i, s in enumerate(tables)]),
               lambda p, t: [1, 2, 3])
        for r, tables in enumerate(rounds)
    ]

    pairing = pair_swiss(list(range(9)), tally(people(9), history, 3), 3, size=3)

    assert [sorted(t.seats) for t in pairing.tables] == [[0, 4, 8], [1, 5, 6], [2, 3, 7]]


def test_rematches_at_larger_tables_go_to_the_least_met():
    """Given 6 entrants who met at 3-seat tables 0-1-2 and 3-4-5, when paired again (every
    grouping repeats a meeting), then each place goes to whoever met the table least, best ranked
    first: 0-3-1 and 2-4-5."""
    first = Pairing(round=1, byes=[], tables=[Table(number=1, seats=[0, 1, 2]),
                                              Table(number=2, seats=[3, 4, 5])])
    history = [record(first, lambda p, t: [1, 2, 3])]

    pairing = pair_swiss(list(range(6)), tally(people(6), history, 3), 2, size=3)

    assert [sorted(t.seats) for t in pairing.tables] == [[0, 1, 3], [2, 4, 5]]


def test_byes_at_larger_tables_go_to_those_without_one_then_to_the_fewest():
    """Given 11 entrants at 3-seat tables (two byes a round) over 7 rounds, then the first five
    rounds give ten different entrants a bye, round 6 gives the last one its first bye, and
    round 7's byes go to two who have one bye each, not to round 6's second holder."""
    history = run(settings("swiss", table_size=3, rounds=7), seed_of(2), people(11),
                  random_outcome(2))

    byes = [r.pairing.byes for r in history]
    first_five = [n for r in byes[:5] for n in r]
    assert len(set(first_five)) == 10
    (last,) = set(range(11)) - set(first_five)
    assert last in byes[5]
    second = next(n for n in byes[5] if n != last)
    assert second not in byes[6] and len(set(byes[6])) == 2


def test_larger_swiss_tables_earn_placement_points_and_a_bye_is_a_table_win():
    """Given 10 entrants at 3-seat tables where the lower number places higher, after round 1,
    then each table's points are 2, 1 and 0 and the bye holder has 2."""
    rules, seed, entrants = settings("swiss", table_size=3, rounds=1), seed_of(4), people(10)
    history = run(rules, seed, entrants, lower_number_wins)

    points = {s.entrant: s.points for s in standings(rules, seed, entrants, history)}
    for table in history[0].pairing.tables:
        assert sorted(points[n] for n in table.seats) == [0, 1, 2]
    assert [points[n] for n in history[0].pairing.byes] == [2]


def test_seats_at_larger_swiss_tables_stay_within_two_of_each_other():
    """Given Swiss at 3 seats (9 entrants over 3 rounds, 12 over 6) and at 4 seats (13 over 8,
    16 over 4) with random results, then nobody's most-sat seat is more than 2 above its
    least-sat seat."""
    for size, count, rounds in ((3, 9, 3), (3, 12, 6), (4, 13, 8), (4, 16, 4)):
        for index in range(5):
            history = run(settings("swiss", table_size=size, rounds=rounds), seed_of(index),
                          people(count), random_outcome(index))
            sat = {n: Counter() for n in range(count)}
            for table in (t for r in history for t in r.pairing.tables):
                for seat, n in enumerate(table.seats):
                    sat[n][seat] += 1
            spread = max(max(c[s] for s in range(size)) - min(c[s] for s in range(size))
                         for c in sat.values())
            assert spread <= 2, (size, count, index)
