"""Tables of any size: who sits together (the least met) and, at more than 2 seats, in which
order (every member in a seat it has sat least)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from .tally import Record

PERMUTE_MAX = 6  # tables up to this size try every seat order; larger ones are seated greedily


def grouped(
    order: list[int], records: dict[int, Record], size: int
) -> tuple[int, list[list[int]]]:
    """Tables filled in turn from ``order``, each adding the entrant who met its members least;
    with the number of repeat meetings they make."""
    left, groups, repeats = list(order), [], 0
    while left:
        members = [left.pop(0)]
        while len(members) < size:
            best = min(left, key=lambda n: sum(records[n].met[m] for m in members))
            repeats += sum(records[best].met[m] for m in members)
            left.remove(best)
            members.append(best)
        groups.append(members)
    return repeats, groups


def seat_order(members: list[int], records: dict[int, Record], size: int) -> list[int]:
    """The seat order putting members in their least-sat seats (``excess``), first found."""

    def cost(order: Iterable[int]) -> int:
        """The total excess of a seat order."""
        return sum(excess(records[n], seat, size) for seat, n in enumerate(order))

    if len(members) <= PERMUTE_MAX:
        return list(min(itertools.permutations(members), key=cost))
    order: list[int] = []
    left = list(members)
    for seat in range(len(members)):
        best = min(left, key=lambda n: excess(records[n], seat, size))
        left.remove(best)
        order.append(best)
    return order


def excess(record: Record, seat: int, size: int) -> int:
    """How many more times an entrant sat ``seat`` than its least-sat seat."""
    return record.seats[seat] - min(record.seats[s] for s in range(size))
