"""House pairing against FIDE's Dutch (py4swiss) on the same standings, for docs/tournaments.md.

Run by hand: ``python -m tests.tournament.compare_pairings [entrants] [rounds] [events]``. Each
event is played with the Dutch pairing and random results; before every round both systems
pair the same standings, and each pairing is scored: score mismatch (the sum over tables of
the difference of the two entrants' points), seat preferences missed (an entrant given the
seat it has sat more, or with equal counts the seat it sat last), and absolute seat rules
broken (after the round an entrant sat one seat 3 more times than the other, or 3 times in a
row), as FIDE's colour rules count them with seat 0 for white.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction

import msgspec

from domain.tournament import Pairing, RoundRecord, Settings, pair_round
from domain.tournament.tally import Record, tally
from tests.tournament.scripted import people, random_outcome, record, seed_of, settings


class Score(msgspec.Struct, kw_only=True):
    """One system's totals."""

    mismatch: Fraction = Fraction(0)
    preference_missed: int = 0
    absolute_broken: int = 0


def preferred(r: Record) -> int | None:
    """The seat an entrant prefers: the one sat less, else the other of its last; None first."""
    if r.seats[0] != r.seats[1]:
        return 0 if r.seats[0] < r.seats[1] else 1
    if not r.games:
        return None
    return 1 - max(r.games, key=lambda g: g.round).seat


def absolute_broken(r: Record, seat: int) -> bool:
    """Whether sitting ``seat`` now breaks an absolute seat rule."""
    counts = [r.seats[0] + (seat == 0), r.seats[1] + (seat == 1)]
    last = [g.seat for g in sorted(r.games, key=lambda g: g.round)][-2:]
    return abs(counts[0] - counts[1]) > 2 or last == [seat, seat]


def scored(pairing: Pairing, records: dict[int, Record], score: Score) -> None:
    """Add one pairing's mismatch, missed preferences and broken rules to ``score``."""
    for table in pairing.tables:
        a, b = (records[n] for n in table.seats)
        score.mismatch += abs(a.points - b.points)
        for seat, number in enumerate(table.seats):
            want = preferred(records[number])
            score.preference_missed += want is not None and want != seat
            score.absolute_broken += absolute_broken(records[number], seat)


def compare(count: int, rounds: int, events: int) -> dict[str, Score]:
    """Both systems' totals over ``events`` events of ``count`` entrants and ``rounds`` rounds."""
    totals = {"house": Score(), "dutch": Score()}
    systems: dict[str, Callable[[Settings], Settings]] = {
        "house": lambda s: msgspec.structs.replace(s, pairing="house"),
        "dutch": lambda s: s}
    for index in range(events):
        rules, entrants = settings("swiss", pairing="dutch", rounds=rounds), people(count)
        history: list[RoundRecord] = []
        for _ in range(rounds):
            records = tally(entrants, history, 2)
            for name, system in systems.items():
                scored(pair_round(system(rules), seed_of(index), entrants, history), records,
                       totals[name])
            history.append(record(pair_round(rules, seed_of(index), entrants, history),
                                  random_outcome(index)))
    return totals


if __name__ == "__main__":
    count, rounds, events = (int(a) for a in (sys.argv[1:] + ["64", "6", "10"][len(sys.argv) - 1:]))
    for name, score in compare(count, rounds, events).items():
        print(f"{name}: mismatch {float(score.mismatch):g}, preference missed "
              f"{score.preference_missed}, absolute broken {score.absolute_broken}")
