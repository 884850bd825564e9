"""Single elimination: the bracket, byes to the top seeds, draws by the lot, re-seeding."""

from __future__ import annotations

import pytest

from domain.tournament import TournamentError, lot, pair_round, standings
from domain.tournament.elimination import bracket_positions
from tests.tournament.scripted import (
    WINTER_CUP,
    lower_number_wins,
    people,
    placed,
    random_outcome,
    record,
    run,
    seed_of,
    settings,
)


def test_the_bracket_places_seeds_in_the_standard_order():
    """Given a bracket of 8 and of 16, then seed 1 meets the last and 1 and 2 are in opposite
    halves."""
    assert bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_positions(16)[:4] == [1, 16, 8, 9]


@pytest.mark.parametrize("count", range(2, 18))
def test_byes_go_to_the_top_seeds_and_the_best_seed_wins_when_the_better_always_wins(count):
    """Given n entrants seeded by registration and the earlier registered always winning, then
    round 1 gives byes to the top P - n seeds, each round halves the field, and the final is
    entrant 0 against entrant 1, won by entrant 0."""
    rules, seed, entrants = settings("single-elimination"), seed_of(count), people(count)
    size = 1 << (count - 1).bit_length()

    history = run(rules, seed, entrants, lower_number_wins)

    assert history[0].pairing.byes == list(range(size - count))
    assert [len(r.pairing.tables) + len(r.pairing.byes) for r in history] == [
        size >> (r + 1) for r in range(len(history))
    ]
    assert [t.seats for t in history[-1].pairing.tables] == [[0, 1]]
    table = standings(rules, seed, entrants, history)
    assert [s.entrant for s in table[:2]] == [0, 1]
    with pytest.raises(TournamentError, match="all are paired"):
        pair_round(rules, seed, entrants, history)


def test_a_drawn_table_sends_on_the_better_placed_in_the_lot():
    """Given 4 entrants and every table drawn, then each round the one earlier in the lot goes
    on, and the champion is the first of the lot among the finalists."""
    rules, seed, entrants = settings("single-elimination"), seed_of(4), people(4)
    place = lot(seed, entrants)

    history = run(rules, seed, entrants, lambda p, t: placed(t, None))

    semis = [min(t.seats, key=place.__getitem__) for t in history[0].pairing.tables]
    assert sorted(history[1].pairing.tables[0].seats) == sorted(semis)
    champion = min(semis, key=place.__getitem__)
    assert standings(rules, seed, entrants, history)[0].entrant == champion


def test_standing_seeding_reseeds_the_survivors_before_every_round():
    """Given 8 entrants seeded by standing, then round 1 follows the lot (first against last)
    and round 2 pairs the survivors' best against their worst by the standings."""
    rules, seed, entrants = settings("single-elimination", seeding="standing"), seed_of(8), people(8)
    order = sorted(range(8), key=lot(seed, entrants).__getitem__)
    first = pair_round(rules, seed, entrants, [])
    done = record(first, random_outcome(8))

    second = pair_round(rules, seed, entrants, [done])

    assert [t.seats for t in first.tables] == [[order[i], order[7 - i]] for i in range(4)]
    survivors = [t.seats[done.result(t.number).placements.index(1)] for t in first.tables
                 if done.result(t.number).placements.count(1) == 1]
    ranked = [s.entrant for s in standings(rules, seed, entrants, [done])]
    alive = [n for n in ranked if n in {m for t in second.tables for m in t.seats}]
    assert [t.seats for t in second.tables] == [[alive[0], alive[3]], [alive[1], alive[2]]]
    assert set(survivors) <= set(alive)


def test_a_withdrawn_survivor_gives_its_next_opponent_a_bye():
    """Given 8 entrants where entrant 0 wins round 1 then withdraws, then round 2 gives the
    winner of the neighbouring pair (entrant 3, seed 4) a bye."""
    rules, seed = settings("single-elimination"), seed_of(2)
    entrants = people(8, withdrawn={0: 1})
    first = record(pair_round(rules, seed, entrants, []), lower_number_wins)

    second = pair_round(rules, seed, entrants, [first])

    assert second.byes == [3]
    assert [t.seats for t in second.tables] == [[1, 2]]


def test_the_bracket_once_decided_by_withdrawals_pairs_no_further_round():
    """Given 4 entrants where a round-1 winner withdraws, then the final would have one survivor:
    pair_round says the bracket is decided, and the survivor tops the standings (reached 2)
    above the one who withdrew unbeaten (reached 1.5)."""
    rules, seed = settings("single-elimination"), seed_of(3)
    entrants = people(4, withdrawn={1: 1})
    first = record(pair_round(rules, seed, entrants, []), lower_number_wins)

    with pytest.raises(TournamentError, match="the bracket is decided before round 2"):
        pair_round(rules, seed, entrants, [first])
    table = standings(rules, seed, entrants, [first])
    assert [(s.entrant, s.tiebreaks["reached"]) for s in table[:2]] == [(0, 2), (1, 1.5)]


def test_an_entrant_withdrawing_during_a_round_ranks_below_everyone_still_in():
    """Given 4 entrants in round 1 of single elimination, none finished, when entrant 2
    withdraws during it (withdrew_after 1), then the live standings rank it last, not first
    (issue #36, defect 6)."""
    table = standings(settings("single-elimination"), WINTER_CUP, people(4, withdrawn={2: 1}), [])
    assert [s.entrant for s in table][-1] == 2
    assert table[-1].tiebreaks["reached"] < min(s.tiebreaks["reached"] for s in table[:-1])
