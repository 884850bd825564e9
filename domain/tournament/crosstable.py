"""The crosstable: every entrant in standing order with its result in every round, as JSON
rows and as CSV (docs/tournaments.md, "Crosstable").

A cell names, at 2 seats, the result and the opponent's rank ("W 4", "D 2", "L 7"; a forfeit
"WF 4" won, "LF 4" lost); at more seats, the placement, the table size and the opponents' ranks
("2/4: 1 5 9"). Else "bye", "void", or empty for a round not played after withdrawing.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

import msgspec

from domain.core.cells import csv_text

from .model import Entrant, RoundRecord, Settings
from .scoring import decimal
from .standings import standings
from .tally import tally

Kind = Literal["played", "forfeit_won", "forfeit_lost", "bye", "half_bye", "void", "absent"]


class Cell(msgspec.Struct, frozen=True, kw_only=True):
    """One entrant's round: what it was, its table and seat, placement, points, opponents."""

    round: int
    kind: Kind
    table: int | None = None
    seat: int | None = None
    placement: int | None = None
    points: str = "0"
    opponents: list[int] = []


class CrossRow(msgspec.Struct, frozen=True, kw_only=True):
    """One entrant's line of the crosstable."""

    rank: int
    entrant: int
    name: str
    points: str
    rounds: list[Cell]


def crosstable(settings: Settings, seed: bytes, entrants: list[Entrant],
               history: list[RoundRecord]) -> list[CrossRow]:
    """Every entrant, in standing order, with a cell a round."""
    ranked = standings(settings, seed, entrants, history)
    records = tally(entrants, history, settings.table_size)
    return [CrossRow(rank=s.rank, entrant=s.entrant, name=s.name, points=decimal(s.points),
                     rounds=[_cell(s.entrant, r, records[s.entrant].games, settings.table_size)
                             for r in history])
            for s in ranked]


def _cell(number: int, record: RoundRecord, games: list[Any], size: int) -> Cell:
    """One entrant's cell for one round."""
    r = record.pairing.round
    if number in record.pairing.byes:
        return Cell(round=r, kind="bye", points=decimal(Fraction(size - 1)))
    if number in record.pairing.half_byes:
        return Cell(round=r, kind="half_bye", points=decimal(Fraction(size - 1, 2)))
    for table in record.pairing.tables:
        if number not in table.seats:
            continue
        result = record.result(table.number)
        seat = table.seats.index(number)
        if result is None:
            return Cell(round=r, kind="void", table=table.number, seat=seat)
        game = next(g for g in games if g.round == r)
        kind: Kind = "played"
        if result.forfeited:
            kind = "forfeit_lost" if number in result.forfeited else "forfeit_won"
        return Cell(round=r, kind=kind, table=table.number, seat=seat,
                    placement=result.placements[seat], points=decimal(game.points),
                    opponents=[n for n in table.seats if n != number])
    return Cell(round=r, kind="absent")


def text(cell: Cell, rank: dict[int, int], size: int) -> str:
    """A cell as the CSV writes it."""
    if cell.kind in ("bye", "void"):
        return cell.kind
    if cell.kind == "half_bye":
        return "half bye"
    if cell.kind == "absent":
        return ""
    others = " ".join(str(rank[o]) for o in cell.opponents)
    if size == 2:
        sign = {"forfeit_won": "WF", "forfeit_lost": "LF"}.get(cell.kind)
        letter = {"1": "W", "0": "L"}.get(cell.points, "D")
        return f"{sign or letter} {others}"
    return f"{cell.placement}/{size}: {others}"


def rows(table: list[CrossRow]) -> list[dict[str, Any]]:
    """The crosstable as JSON-ready objects."""
    return [msgspec.to_builtins(row) for row in table]


def crosstable_csv(table: list[CrossRow], size: int, rounds: int) -> str:
    """The crosstable as CSV: rank, entrant, name, points, then r1 ... rN."""
    rank = {row.entrant: row.rank for row in table}
    head = ["rank", "entrant", "name", "points", *(f"r{i}" for i in range(1, rounds + 1))]
    body = [[row.rank, row.entrant, row.name, row.points,
             *(text(cell, rank, size) for cell in row.rounds)] for row in table]
    return csv_text([head, *body], lineterminator="\n")
