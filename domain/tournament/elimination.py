"""Single elimination: who advances from each table, and the bracket of the next round.

Registration seeding fixes a standard bracket in round 1 (seed 1 meets the last seed, byes go to
the top seeds when the count is not a power of two) and winners meet as the bracket says.
Standing seeding re-seeds the survivors by the current standings before every round.
"""

from __future__ import annotations

from .model import Pairing, RoundRecord, Table


def bracket_positions(size: int) -> list[int]:
    """Seed numbers (from 1) in bracket order for a power-of-two size: 1, size, ..., 2."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def bracket_size(count: int) -> int:
    """The smallest power of two holding ``count`` entrants."""
    size = 1
    while size < count:
        size *= 2
    return size


def winner(seats: list[int], placements: list[int], lot: dict[int, int]) -> int:
    """The entrant who advances: placed first; a tie goes to the better place in the lot."""
    best = min(placements)
    tied = [n for seat, n in enumerate(seats) if placements[seat] == best]
    return min(tied, key=lambda n: lot[n])


def advanced(record: RoundRecord, lot: dict[int, int]) -> list[int]:
    """Who goes on from a round: its byes and each finished table's winner."""
    out = list(record.pairing.byes)
    for table in record.pairing.tables:
        result = record.result(table.number)
        if result is not None:
            out.append(winner(table.seats, result.placements, lot))
    return out


def eliminated(history: list[RoundRecord], lot: dict[int, int]) -> dict[int, int]:
    """The round in which each beaten entrant lost its table."""
    out: dict[int, int] = {}
    for record in history:
        going_on = set(advanced(record, lot))
        for table in record.pairing.tables:
            for number in table.seats:
                if number not in going_on and record.result(table.number) is not None:
                    out[number] = record.pairing.round
    return out


def slots(seeds: list[int], history: list[RoundRecord], lot: dict[int, int]) -> list[int | None]:
    """The fixed bracket's places after ``history``: who holds each, None when empty."""
    size = bracket_size(len(seeds))
    places: list[int | None] = [
        seeds[s - 1] if s <= len(seeds) else None for s in bracket_positions(size)
    ]
    for record in history:
        going_on = set(advanced(record, lot))
        places = [_held(places[i], places[i + 1], going_on) for i in range(0, len(places), 2)]
    return places


def _held(a: int | None, b: int | None, going_on: set[int]) -> int | None:
    """Who of a bracket pair went on (None if neither)."""
    return next((n for n in (a, b) if n is not None and n in going_on), None)


def pair_fixed(places: list[int | None], seed_of: dict[int, int], round_number: int) -> Pairing:
    """Each pair of places meets (the higher seed first); one alone has a bye."""
    tables: list[Table] = []
    byes: list[int] = []
    for i in range(0, len(places), 2):
        present = [n for n in places[i : i + 2] if n is not None]
        if len(present) == 2:
            seats = sorted(present, key=lambda n: seed_of[n])
            tables.append(Table(number=len(tables) + 1, seats=seats))
        byes += present if len(present) == 1 else []
    return Pairing(round=round_number, tables=tables, byes=sorted(byes))


def pair_reseeded(ranked: list[int], round_number: int) -> Pairing:
    """Survivors in standing order: the top ones get the byes, then first meets last inward."""
    byes = ranked[: bracket_size(len(ranked)) - len(ranked)]
    rest = ranked[len(byes) :]
    tables = [
        Table(number=i + 1, seats=[rest[i], rest[len(rest) - 1 - i]]) for i in range(len(rest) // 2)
    ]
    return Pairing(round=round_number, tables=tables, byes=sorted(byes))
