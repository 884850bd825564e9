"""Tie-breaks as FIDE's C.07 (2023) defines them, for tables of any size (docs/tournaments.md,
section 5): Buchholz and Buchholz Cut-1 with virtual opponents for unplayed rounds,
Sonneborn-Berger, wins, direct encounter; and this house's firsts and reached.

An unplayed round (a bye, a forfeit either way, a void table, a round after withdrawing) is a
game against a virtual opponent whose score is the entrant's own (C.07 16.4); in an opponent's
score, its own voluntarily unplayed rounds (a forfeit lost, a round after withdrawing, a void
table) count as draws (C.07 16.3). At k seats a round has k - 1 opponents, a draw is worth
(k - 1)/2 and a virtual round k - 1 virtual opponents.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from .model import RoundRecord
from .tally import Record

DEFAULTS: dict[str, tuple[str, ...]] = {
    "swiss": ("buchholz", "sonneborn_berger"),
    "round-robin": ("sonneborn_berger", "firsts"),
    "single-elimination": ("reached", "buchholz"),
}


def order(format: str, chosen: list[str] | None) -> tuple[str, ...]:
    """The tie-breaks in force: the organizer's order, or the format's (reached first always
    in single elimination)."""
    if chosen is None:
        return DEFAULTS[format]
    if format == "single-elimination":
        return ("reached", *(n for n in chosen if n != "reached"))
    return tuple(chosen)


class Unplayed:
    """Each entrant's unplayed rounds with the points they earned: all of them, and the
    voluntary ones (a forfeit lost, a round after withdrawing, a void table)."""

    def __init__(self, history: list[RoundRecord], records: dict[int, Record], size: int,
                 out: dict[int, int]) -> None:
        self.all: dict[int, list[Fraction]] = {n: [] for n in records}
        self.voluntary: dict[int, list[Fraction]] = {n: [] for n in records}
        for number, record in records.items():
            games = {g.round: g for g in record.games}
            for past in history:
                r = past.pairing.round
                if r > out.get(number, len(history)):
                    break  # single elimination: out of the bracket, not unplaying
                game = games.get(r)
                if game is not None and game.played:
                    continue
                bye, half = r in record.byes, r in record.half_byes
                earned = game.points if game is not None else (
                    Fraction(size - 1) if bye else Fraction(size - 1, 2) if half else Fraction(0))
                self.all[number].append(earned)
                if (game is not None and game.forfeited) or (game is None and not bye):
                    self.voluntary[number].append(earned)


def values(names: tuple[str, ...], history: list[RoundRecord], records: dict[int, Record],
           size: int, out: dict[int, int], reached: dict[int, Fraction]
           ) -> dict[int, dict[str, Fraction]]:
    """Every entrant's tie-breaks by name, direct encounter left at 0 (``encounters`` sets
    it); ``out``: the round each entrant left a bracket in, ``reached`` its rank there."""
    unplayed = Unplayed(history, records, size, out)
    draw = Fraction(size - 1, 2)
    adjusted = {n: r.points + sum((draw - p for p in unplayed.voluntary[n]), Fraction(0))
                for n, r in records.items()}
    table: dict[int, dict[str, Fraction]] = {}
    for number, record in records.items():
        parts = [adjusted[o] for g in record.games for o in g.against]
        parts += [record.points] * ((size - 1) * len(unplayed.all[number]))
        sb = sum((adjusted[o] * s for g in record.games for o, s in g.against.items()),
                 Fraction(0))
        sb += sum((record.points * p for p in unplayed.all[number]), Fraction(0))
        found = {
            "buchholz": sum(parts, Fraction(0)),
            "buchholz_cut1": sum(parts, Fraction(0)) - min(parts, default=Fraction(0)),
            "sonneborn_berger": sb,
            "wins": Fraction(sum(1 for g in record.games if g.played and g.alone_first)),
            "direct_encounter": Fraction(0),
            "firsts": Fraction(record.firsts),
            "reached": reached.get(number, Fraction(0)),
        }
        table[number] = {name: found[name] for name in names}
    return table


def encounters(names: tuple[str, ...], points: dict[int, Fraction],
               table: dict[int, dict[str, Fraction]], records: dict[int, Record]) -> None:
    """Direct encounter: among entrants equal on points and every tie-break before it, the
    points each scored in games between them; 0 for all of a group not all of whom met."""
    if "direct_encounter" not in names:
        return
    before = names[: names.index("direct_encounter")]
    groups: dict[tuple[Fraction, ...], list[int]] = {}
    for number in table:
        key = (points[number], *(table[number][n] for n in before))
        groups.setdefault(key, []).append(number)
    for group in groups.values():
        if len(group) < 2 or not all(records[a].met[b] for a, b in
                                     itertools.combinations(group, 2)):
            continue
        for number in group:
            table[number]["direct_encounter"] = sum(
                (s for g in records[number].games for o, s in g.against.items() if o in group),
                Fraction(0))
