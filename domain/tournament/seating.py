"""Tables of any size: who sits together (the least met) and, at more than 2 seats, in which
order (every member in a seat it has sat least)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

from .tally import Record

Cost = tuple[int, int]
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


def fewest_repeats(
    order: list[int], records: dict[int, Record], size: int
) -> list[list[int]]:
    """Tables of ``order`` (best first) making as few repeat meetings as swaps can find.

    Start from ``grouped``; then, while some exchange of two entrants between two tables lowers
    (repeat meetings, rank spread), make the first such exchange found. The rank spread (the sum
    over tables of the last member's place in ``order`` minus the first's) keeps tables of
    near-equal standing together. Deterministic; each exchange lowers the pair, so it ends.
    """
    place = {n: i for i, n in enumerate(order)}
    tables = grouped(order, records, size)[1]

    def cost(members: list[int]) -> tuple[int, int]:
        """One table's repeat meetings and rank spread."""
        met = sum(records[a].met[b] for a, b in itertools.combinations(members, 2))
        return met, max(place[n] for n in members) - min(place[n] for n in members)

    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            if _exchange(tables, i, j, cost):
                improved = True
    return [sorted(members, key=place.__getitem__) for members in tables]


def _exchange(tables: list[list[int]], i: int, j: int, cost: Callable[[list[int]], Cost]
              ) -> bool:
    """Make the first exchange of a member of table i with one of table j that lowers their
    summed cost; whether one was made."""
    before = _plus(cost(tables[i]), cost(tables[j]))
    for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
        first, second = list(tables[i]), list(tables[j])
        first[a], second[b] = second[b], first[a]
        if _plus(cost(first), cost(second)) < before:
            tables[i], tables[j] = first, second
            return True
    return False


def _plus(x: Cost, y: Cost) -> Cost:
    """Two costs added field by field."""
    return x[0] + y[0], x[1] + y[1]


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
