"""For many seeds and counts: pairings are deterministic, complete, byes single, and Swiss
never rematches when a rematch-free pairing exists (checked by brute force)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from domain.tournament import Pairing, RoundRecord, TournamentError, pair_round, rounds_total
from domain.tournament.tally import tally
from tests import sampling
from tests.tournament.scripted import people, random_outcome, record, seed_of, settings

# Tournament seeds a run (a sampling test, tests/sampling.py), and under `make sample-all`.
SEEDS = [sampling.index(k) for k in sampling.samples(12, 120)]


def perfect(players: list[int], met: dict[int, Counter], size: int = 2) -> bool:
    """Whether ``players`` can all sit at tables of ``size`` without a rematch (every grouping
    of the top entrant tried)."""
    if not players:
        return True
    top, rest = players[0], players[1:]
    return any(
        all(not met[a][b] for a, b in itertools.combinations((top, *others), 2))
        and perfect([p for p in rest if p not in others], met, size)
        for others in itertools.combinations(rest, size - 1)
    )


def rematch_free_exists(records: dict, playing: list[int], size: int = 2) -> bool:
    """Whether some allowed set of byes and seating of ``playing`` has no rematch."""
    met = {n: records[n].met for n in playing}
    spare = len(playing) % size
    unbyed = [n for n in playing if not records[n].byes]
    if len(unbyed) >= spare:
        choices = list(itertools.combinations(unbyed, spare))
    else:
        byed = [n for n in playing if records[n].byes]
        choices = [(*unbyed, *more) for more in itertools.combinations(byed, spare - len(unbyed))]
    return any(perfect([p for p in playing if p not in byes], met, size) for byes in choices)


def rematch_free(pairing: Pairing, records: dict) -> bool:
    """Whether no two entrants at any table of ``pairing`` have met before."""
    return all(not records[a].met[b] for t in pairing.tables
               for a, b in itertools.combinations(t.seats, 2))


def alive(history: list[RoundRecord], playing: list[int]) -> set[int]:
    """Single elimination: who is still in (never placed below another at a table)."""
    beaten = {n for r in history for t in r.pairing.tables
              for seat, n in enumerate(t.seats)
              if r.result(t.number).placements[seat] > 1}
    drawn = [t for r in history for t in r.pairing.tables
             if set(r.result(t.number).placements) == {1}]
    assert not drawn, "the outcome used here never draws at 2 seats in elimination"
    return set(playing) - beaten


def check_round(pairing: Pairing, playing: list[int], history: list[RoundRecord]) -> None:
    """Every playing entrant exactly once."""
    seated = [n for t in pairing.tables for n in t.seats] + pairing.byes
    assert sorted(seated) == playing


def check_byes(pairing: Pairing, playing: list[int], history: list[RoundRecord]) -> None:
    """Swiss: no second bye while another playing entrant had none and has none this round, and
    none given to one with more byes than another left playing."""
    had = Counter(n for r in history for n in r.pairing.byes)
    seated = [n for n in playing if n not in pairing.byes]
    for n in pairing.byes:
        assert had[n] == 0 or all(had[m] or m in pairing.byes for m in playing), (n, had)
        assert all(had[n] <= had[m] for m in seated), (n, had)


def decisive(index: int):
    """Random 2-seat results without draws."""
    chooser = random.Random(index)
    return lambda pairing, table: chooser.choice([[1, 2], [2, 1]])


def play_with_dropouts(
    format: str, count: int, index: int, table_size: int = 2, rounds: int | None = None
) -> None:
    """A whole tournament with random results and a random dropout, every round checked."""
    chooser = random.Random(index * 100 + count)
    rules = settings(format, table_size=table_size, rounds=rounds)
    dropout = chooser.randrange(count) if count > max(3, table_size + 1) else None
    entrants = people(count, withdrawn={} if dropout is None else {dropout: 1})
    outcome = random_outcome(index) if format != "single-elimination" else decisive(index)
    seed, history = seed_of(index), []
    for number in range(1, rounds_total(rules, entrants) + 1):
        try:
            pairing = pair_round(rules, seed, entrants, history)
        except TournamentError as error:  # a bracket the dropout decided early: one is left
            assert format == "single-elimination" and "decided" in error.message
            assert len([n for n in alive(history, range(count)) if n != dropout]) == 1
            return
        assert pairing == pair_round(rules, seed, entrants, list(history))  # deterministic
        playing = [e.number for e in entrants if e.withdrew_after in (None,) or
                   e.withdrew_after >= number]
        if format == "single-elimination":
            playing = [n for n in playing if n in alive(history, playing)]
        check_round(pairing, playing, history)
        met = tally(entrants, history, table_size)
        if format == "swiss":
            check_byes(pairing, playing, history)
        if format == "swiss" and rematch_free_exists(met, playing, table_size):
            assert rematch_free(pairing, met), number
        history.append(record(pairing, outcome))


@sampling.MARK
def test_swiss_pairings_hold_for_many_seeds_and_counts():
    """Given Swiss at 2 to 10 entrants, each with a dropout after round 1 when large enough,
    then every round is deterministic and complete, and rematch-free whenever that is possible."""
    for count in range(2, 11):
        for index in SEEDS:
            play_with_dropouts("swiss", count, index)


@sampling.MARK
def test_swiss_at_larger_tables_holds_for_many_seeds_and_counts():
    """Given Swiss at 3-seat tables (3 to 11 entrants) and 4-seat tables (4 to 13) over up to 4
    rounds, each with a dropout after round 1 when large enough, then every round is
    deterministic, seats every playing entrant once with no second bye while another had none,
    and is rematch-free whenever some set of byes and seating is."""
    for index in SEEDS[:6]:
        for count in range(3, 12):
            play_with_dropouts("swiss", count, index, table_size=3, rounds=min(4, count - 1))
        for count in range(4, 14):
            play_with_dropouts("swiss", count, index, table_size=4, rounds=min(4, count - 1))


@sampling.MARK
def test_round_robin_and_elimination_rounds_hold_for_many_seeds_and_counts():
    """Given round robin (2 and 3 seats) and single elimination at many counts and seeds, each
    with a dropout, then every round is deterministic and seats every playing entrant once (a
    round robin dropout's scheduled opponents take byes, so a second bye can happen there)."""
    for count in range(3, 12):
        for index in SEEDS[:6]:
            play_with_dropouts("round-robin", count, index)
            play_with_dropouts("round-robin", count, index, table_size=3)
            play_with_dropouts("single-elimination", count, index)


def test_a_different_seed_draws_a_different_first_round():
    """Given 12 entrants, then two seeds give different Swiss first rounds (the seed matters)."""
    rules, entrants = settings("swiss"), people(12)
    rounds = {repr(pair_round(rules, seed_of(i), entrants, [])) for i in range(5)}
    assert len(rounds) == 5
