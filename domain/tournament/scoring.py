"""Points from placements, and the tournament's seeded draw (the lot); docs/tournaments.md.

A seat earns one point for every other seat placed below it and half a point for every other
seat tied with it: on a 2-seat table a win is 1, a draw 1/2, a loss 0. A bye is worth a win
(``table_size - 1`` points). Every value is an exact Fraction, a multiple of 1/2.
"""

from __future__ import annotations

from fractions import Fraction

from domain.core.rng import Rng

from .model import Entrant

HALF = Fraction(1, 2)


def match_points(placements: list[int], seat: int) -> Fraction:
    """The points ``seat`` earns at a table: seats placed below it, plus half the seats tied."""
    mine = placements[seat]
    below = sum(1 for other, p in enumerate(placements) if other != seat and p > mine)
    tied = sum(1 for other, p in enumerate(placements) if other != seat and p == mine)
    return below + HALF * tied


def versus(placements: list[int], seat: int, other: int) -> Fraction:
    """``seat``'s score against one other seat of the table: 1 above it, 1/2 tied, 0 below."""
    if placements[seat] < placements[other]:
        return Fraction(1)
    return HALF if placements[seat] == placements[other] else Fraction(0)


def bye_points(table_size: int) -> Fraction:
    """A bye is worth a win at a table of the tournament's size."""
    return Fraction(table_size - 1)


def lot(seed: bytes, entrants: list[Entrant]) -> dict[int, int]:
    """The seeded draw: each entrant number's place (0 first) in a shuffle of the numbers of
    the entrants from round 1, then the late entries by round of entry and number.

    Drawn once per tournament from the stream ``tournament/0/lot``.
    """
    numbers = sorted(e.number for e in entrants if e.first_round == 1)
    late = sorted((e.first_round, e.number) for e in entrants if e.first_round != 1)
    order = Rng(seed).stream("tournament", 0, "lot").shuffle(numbers) + [n for _, n in late]
    return {number: place for place, number in enumerate(order)}


def decimal(value: Fraction) -> str:
    """A multiple of 1/2 (or any fraction with a finite decimal form) as a decimal string."""
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return str(whole)
    digits, scale = rest, value.denominator
    text = ""
    while digits and len(text) < 12:
        digits *= 10
        text += str(digits // scale)
        digits %= scale
    if digits:
        raise ValueError(f"{value} has no short decimal form")
    return f"{whole}.{text}"
