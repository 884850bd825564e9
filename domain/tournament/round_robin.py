"""Round robin: the circle method for 2-seat tables, rotated seats for larger ones.

2 seats: the entrants in lot order stand on a circle (an odd count adds an empty place, the bye,
fixed at the top); each round the circle turns one step and places i and n-1-i meet; the seat
order alternates so each entrant sits first in half its games (one more or less).
Larger tables: docs/tournaments.md, "Round robin at larger tables".
"""

from __future__ import annotations

from domain.core.rng import Rng

from .model import Entrant, Pairing, Table
from .seating import grouped, seat_order
from .tally import Record

ROTATIONS = 16  # groupings tried per round, from the first 16 rotations of the drawn order


def natural_rounds(count: int, table_size: int) -> int:
    """Every pair meets once: n - 1 rounds (n even) or n (odd); larger tables ceil((n-1)/(k-1))."""
    if table_size == 2:
        return count - 1 if count % 2 == 0 else count
    return -(-(count - 1) // (table_size - 1))


def circle_round(order: list[int | None], round_number: int) -> list[tuple[int | None, int | None]]:
    """The circle method's pairs for a round (from 1), in seat order; None is the empty place."""
    n = len(order)
    turn = (round_number - 1) % (n - 1)
    rest = order[1:]
    rest = rest[len(rest) - turn:] + rest[: len(rest) - turn]
    places = [order[0], *rest]
    pairs = []
    for i in range(n // 2):
        a, b = places[i], places[n - 1 - i]
        first = (round_number - 1) % 2 == 0 if i == 0 else i % 2 == 1
        pairs.append((a, b) if first else (b, a))
    return pairs


def pair_two_seat(
    entrants: list[Entrant], playing: set[int], lot: dict[int, int], round_number: int
) -> Pairing:
    """A 2-seat round: the circle's pairs; an entrant whose opponent is absent has a bye."""
    numbers = sorted((e.number for e in entrants), key=lambda n: lot[n])
    ordered: list[int | None] = [None, *numbers] if len(numbers) % 2 else list(numbers)
    tables: list[Table] = []
    byes: list[int] = []
    for a, b in circle_round(ordered, round_number):
        present = [n for n in (a, b) if n is not None and n in playing]
        if len(present) == 2:
            tables.append(Table(number=len(tables) + 1, seats=present))
        byes += present if len(present) == 1 else []
    return Pairing(round=round_number, tables=tables, byes=sorted(byes))


def pair_large(
    seed: bytes, playing: list[int], records: dict[int, Record], size: int, round_number: int
) -> Pairing:
    """A round at tables of ``size``: byes to the fewest byes, tables of the least met."""
    drawn = Rng(seed).stream("tournament", round_number, "tables").shuffle(sorted(playing))
    place = {n: i for i, n in enumerate(drawn)}
    spare = len(drawn) % size
    byes = sorted(drawn, key=lambda n: (len(records[n].byes), place[n]))[:spare]
    left = [n for n in drawn if n not in byes]
    starts = [left[i:] + left[:i] for i in range(min(len(left), ROTATIONS))]
    groups = min((grouped(start, records, size) for start in starts), key=lambda g: g[0])[1]
    tables = [
        Table(number=i + 1, seats=seat_order(members, records, size))
        for i, members in enumerate(groups)
    ]
    return Pairing(round=round_number, tables=tables, byes=sorted(byes))
