"""Standings: points, the tie-breaks in force, then the seeded draw; as rows, JSON and CSV.

The tie-breaks are the organizer's order (settings.tiebreaks) or the format's: Swiss, Buchholz
then Sonneborn-Berger; round robin, Sonneborn-Berger then first places; single elimination, the
round reached (still in, then out later, then out earlier) before points, then Buchholz. Each
as FIDE C.07 defines it (domain.tournament.tiebreaks). Last of all, the lot. A withdrawn
entrant keeps its results; its opponents' tie-breaks still count them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import msgspec

from domain.core.cells import csv_text

from . import tiebreaks
from .elimination import eliminated
from .model import Entrant, RoundRecord, Settings
from .scoring import decimal, lot
from .tally import tally

TIEBREAKS = tiebreaks.DEFAULTS
CSV_COLUMNS = ("rank", "entrant", "name", "points", "tiebreak_1", "tiebreak_2", "played",
               "byes", "withdrawn")  # with the default two tie-breaks (csv_columns)


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the standings; ``tiebreaks`` in the format's order (TIEBREAKS)."""

    rank: int
    entrant: int
    name: str
    points: Fraction
    tiebreaks: dict[str, Fraction]
    played: int
    byes: int
    withdrawn: bool


def standings(
    settings: Settings, seed: bytes, entrants: list[Entrant], history: list[RoundRecord]
) -> list[Standing]:
    """Every entrant ranked from the finished tables of ``history`` (withdrawn ones included)."""
    records = tally(entrants, history, settings.table_size)
    draw = lot(seed, entrants)
    names_in_force = tiebreaks.order(settings.format, settings.tiebreaks)
    out, reached = {}, {}
    if settings.format == "single-elimination":
        out, reached = eliminated(history, draw), _lost(entrants, history, draw)
    breaks = tiebreaks.values(names_in_force, history, records, settings.table_size, out,
                              reached)
    points = {n: r.points for n, r in records.items()}
    tiebreaks.encounters(names_in_force, points, breaks, records)
    done = {n: (records[n], breaks[n]) for n in records}

    def key(number: int) -> tuple[Any, ...]:
        """The sort key: (reached,) points, the tie-breaks in order, best first, the lot last."""
        record, values = done[number]
        if settings.format == "single-elimination":
            rest = [-v for name, v in values.items() if name != "reached"]
            return (-values["reached"], -record.points, *rest, draw[number])
        return (-record.points, *(-value for value in values.values()), draw[number])

    names = {e.number: e for e in entrants}
    return [
        Standing(
            rank=rank,
            entrant=number,
            name=names[number].name,
            points=done[number][0].points,
            tiebreaks=done[number][1],
            played=sum(1 for g in done[number][0].games if g.played),
            byes=len(done[number][0].byes),
            withdrawn=names[number].withdrew_after is not None,
        )
        for rank, number in enumerate(sorted(done, key=key), start=1)
    ]


def _lost(
    entrants: list[Entrant], history: list[RoundRecord], draw: dict[int, int]
) -> dict[int, Fraction]:
    """Single elimination: the round each entrant lost in; one that withdrew unbeaten after
    round r, r + 1/2 (during a round not yet over, below everyone still in); one still in, one
    past the last round."""
    beaten = eliminated(history, draw)
    out = {}
    for e in entrants:
        if e.number in beaten:
            out[e.number] = Fraction(beaten[e.number])
        elif e.withdrew_after is None:
            out[e.number] = Fraction(len(history) + 1)
        else:
            out[e.number] = min(e.withdrew_after, len(history)) + Fraction(1, 2)
    return out


def rows(table: list[Standing]) -> list[dict[str, Any]]:
    """The standings as JSON-ready objects, every exact value a decimal string."""
    return [
        {
            "rank": s.rank,
            "entrant": s.entrant,
            "name": s.name,
            "points": decimal(s.points),
            "tiebreaks": {k: decimal(v) for k, v in s.tiebreaks.items()},
            "played": s.played,
            "byes": s.byes,
            "withdrawn": s.withdrawn,
        }
        for s in table
    ]


def csv_columns(count: int) -> list[str]:
    """The standings CSV's columns with ``count`` tie-breaks."""
    return [*CSV_COLUMNS[:4], *(f"tiebreak_{i}" for i in range(1, count + 1)), *CSV_COLUMNS[-3:]]


def standings_csv(table: list[Standing]) -> str:
    """The standings as CSV (csv_columns; the tie-breaks in the order in force); names that
    begin like a formula are neutralised (domain.core.cells)."""
    count = len(table[0].tiebreaks) if table else 2
    return csv_text(
        [csv_columns(count)]
        + [[s.rank, s.entrant, s.name, decimal(s.points),
            *[decimal(v) for v in s.tiebreaks.values()], s.played, s.byes,
            str(s.withdrawn).lower()] for s in table],
        lineterminator="\n",
    )
