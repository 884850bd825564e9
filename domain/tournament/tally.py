"""What the results so far say about each entrant: points, opponents, seats, byes."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import msgspec

from .model import Entrant, RoundRecord, TableResult
from .scoring import bye_points, match_points, versus


class Game(msgspec.Struct, frozen=True, kw_only=True):
    """One finished table from one entrant's side: its points and, per opponent, its score."""

    round: int
    table: int
    seat: int
    points: Fraction
    against: dict[int, Fraction]  # opponent number -> 1 above it, 1/2 tied, 0 below
    # (an opponent met over the board: a forfeit's other side is left out)
    forfeited: bool = False  # this entrant forfeited the table
    alone_first: bool = False  # placed first, nobody tied with it

    @property
    def played(self) -> bool:
        """Whether the game was played against anyone (not won or lost by forfeit alone)."""
        return bool(self.against)


class Record(msgspec.Struct, kw_only=True):
    """One entrant's results so far."""

    number: int
    points: Fraction = Fraction(0)
    games: list[Game] = []
    byes: list[int] = []  # the rounds of its byes
    half_byes: list[int] = []  # the rounds of its requested byes
    seats: Counter[int] = msgspec.field(default_factory=Counter)
    met: Counter[int] = msgspec.field(default_factory=Counter)
    firsts: int = 0


def tally(
    entrants: list[Entrant], history: list[RoundRecord], table_size: int
) -> dict[int, Record]:
    """Every entrant's record from the finished tables and byes of ``history``."""
    records = {e.number: Record(number=e.number) for e in entrants}
    for record in history:
        for number in record.pairing.byes:
            records[number].byes.append(record.pairing.round)
            records[number].points += bye_points(table_size)
        for number in record.pairing.half_byes:
            records[number].half_byes.append(record.pairing.round)
            records[number].points += bye_points(table_size) / 2
        for table in record.pairing.tables:
            result = record.result(table.number)
            if result is not None:
                _count_table(records, table.seats, result)
    return records


def _count_table(records: dict[int, Record], seats: list[int], result: TableResult) -> None:
    """Add one finished table to each of its entrants' records; a forfeit earns its points but
    is no game played between the forfeiting entrant and the others (nor a meeting)."""
    gone = set(result.forfeited)
    for seat, number in enumerate(seats):
        mine = records[number]
        points = match_points(result.placements, seat)
        against = {
            other: versus(result.placements, seat, other_seat)
            for other_seat, other in enumerate(seats)
            if other_seat != seat and not {number, other} & gone
        }
        alone = result.placements.count(result.placements[seat]) == 1
        mine.games.append(Game(
            round=result.round, table=result.table, seat=seat, points=points, against=against,
            forfeited=number in gone, alone_first=alone and result.placements[seat] == 1))
        mine.points += points
        mine.seats[seat] += 1
        mine.met.update(against.keys())
        mine.firsts += result.placements[seat] == 1
