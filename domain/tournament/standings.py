"""Standings: points, the format's tie-breaks, then the seeded draw; as rows, JSON and CSV.

Swiss: Buchholz (the sum of the current points of every opponent met), then Sonneborn-Berger
(the sum, over every opponent met, of its points times one's score against it: 1, 1/2 or 0).
Round robin: Sonneborn-Berger, then the number of first places. Single elimination: the round
reached (still in, then out later, then out earlier), then points, then Buchholz. Last of all,
the lot. A withdrawn entrant keeps its results; its opponents' tie-breaks still count them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import msgspec

from domain.core.cells import csv_text

from .elimination import eliminated
from .model import Entrant, RoundRecord, Settings
from .scoring import decimal, lot
from .tally import Record, tally

TIEBREAKS: dict[str, tuple[str, ...]] = {
    "swiss": ("buchholz", "sonneborn_berger"),
    "round-robin": ("sonneborn_berger", "firsts"),
    "single-elimination": ("reached", "buchholz"),
}
CSV_COLUMNS = ("rank", "entrant", "name", "points", "tiebreak_1", "tiebreak_2", "played",
               "byes", "withdrawn")


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
    lost = _lost(entrants, history, draw) if settings.format == "single-elimination" else {}
    out = {r.number: (r, _tiebreaks(settings, records, r, lost)) for r in records.values()}

    def key(number: int) -> tuple[Any, ...]:
        """The sort key: the format's order, best first, the lot last."""
        record, breaks = out[number]
        if settings.format == "single-elimination":
            return (-breaks["reached"], -record.points, -breaks["buchholz"], draw[number])
        return (-record.points, *(-value for value in breaks.values()), draw[number])

    names = {e.number: e for e in entrants}
    return [
        Standing(
            rank=rank,
            entrant=number,
            name=names[number].name,
            points=out[number][0].points,
            tiebreaks=out[number][1],
            played=sum(1 for g in out[number][0].games if g.played),
            byes=len(out[number][0].byes),
            withdrawn=names[number].withdrew_after is not None,
        )
        for rank, number in enumerate(sorted(out, key=key), start=1)
    ]


def _tiebreaks(
    settings: Settings,
    records: dict[int, Record],
    record: Record,
    lost: dict[int, Fraction],
) -> dict[str, Fraction]:
    """The format's tie-break values for one entrant."""
    values: dict[str, Fraction] = {}
    for name in TIEBREAKS[settings.format]:
        if name == "buchholz":
            values[name] = sum(
                (records[o].points for g in record.games for o in g.against), Fraction(0)
            )
        elif name == "sonneborn_berger":
            values[name] = sum(
                (records[o].points * s for g in record.games for o, s in g.against.items()),
                Fraction(0),
            )
        elif name == "firsts":
            values[name] = Fraction(record.firsts)
        else:
            values[name] = lost[record.number]
    return values


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


def standings_csv(table: list[Standing]) -> str:
    """The standings as CSV (CSV_COLUMNS; the tie-breaks in the format's order); names that
    begin like a formula are neutralised (domain.core.cells)."""
    return csv_text(
        [list(CSV_COLUMNS)]
        + [[s.rank, s.entrant, s.name, decimal(s.points),
            *[decimal(v) for v in s.tiebreaks.values()], s.played, s.byes,
            str(s.withdrawn).lower()] for s in table],
        lineterminator="\n",
    )
