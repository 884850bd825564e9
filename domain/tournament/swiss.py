"""Swiss pairing at tables of any size: the top of the ranking opens a table, which takes the
highest-ranked entrants who have met none of its members.

The search backtracks (not greedy only): when a choice leaves the rest unseatable without a
rematch it tries the next candidate, and then the next set of byes. Only when no rematch-free
round exists (or the search passes SEARCH_STEPS) does it seat top-down allowing rematches,
each place going to whoever met the table's members least. docs/tournaments.md, "Swiss".
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from .model import Pairing, Table
from .seating import fewest_repeats, seat_order
from .tally import Record

SEARCH_STEPS = 200_000


class _Budget:
    """A step counter that stops a search gone too deep (deterministic: counts, not time)."""

    def __init__(self) -> None:
        self.left = SEARCH_STEPS

    def spend(self) -> bool:
        """Take one step; False once the budget is spent."""
        self.left -= 1
        return self.left >= 0


@dataclass(slots=True)
class _Frame:
    """One place of the search: the tables closed, the open table, who is left, the next try."""

    tables: list[list[int]]
    members: list[int]
    left: list[int]
    cursor: int


def pair_swiss(
    ranked: list[int], records: dict[int, Record], round_number: int, size: int = 2
) -> Pairing:
    """A Swiss round at tables of ``size`` for the playing entrants, ranked best first."""
    budget, spare = _Budget(), len(ranked) % size
    for byes in bye_sets(ranked, records, spare):
        tables = _search([n for n in ranked if n not in byes], records, size, budget)
        if tables is not None:
            return _pairing(tables, byes, records, size, round_number)
        if budget.left < 0:
            break
    byes = next(bye_sets(ranked, records, spare))
    tables = fewest_repeats([n for n in ranked if n not in byes], records, size)
    return _pairing(tables, byes, records, size, round_number)


def bye_sets(
    ranked: list[int], records: dict[int, Record], spare: int
) -> Iterator[tuple[int, ...]]:
    """The sets of ``spare`` byes in the order tried: the lowest ranked without a bye first.

    Nobody has a second bye while a playing entrant has had none: when fewer than ``spare`` have
    had none, all of them have one and the rest go to those with the fewest byes, lowest ranked
    first.
    """
    unbyed = [n for n in reversed(ranked) if not records[n].byes]
    if len(unbyed) >= spare:
        yield from itertools.combinations(unbyed, spare)
        return
    byed = sorted((n for n in reversed(ranked) if records[n].byes),
                  key=lambda n: len(records[n].byes))
    for more in itertools.combinations(byed, spare - len(unbyed)):
        yield (*unbyed, *more)


def _search(
    rest: list[int], records: dict[int, Record], size: int, budget: _Budget
) -> list[list[int]] | None:
    """Rematch-free tables of ``rest`` (top first, highest-ranked candidates first), or None.

    Depth-first with an explicit stack (a field of thousands would pass Python's recursion
    limit). The highest-ranked unseated entrant opens each table (no choice, so its frame
    replaces the one before); a table's later places go in ranking order, so no set is tried twice.
    """
    frames = [_Frame([], [], rest, 0)]
    while frames:
        frame = frames[-1]
        if not frame.members:
            if not frame.left:
                return frame.tables
            frames[-1] = _Frame(frame.tables, [frame.left[0]], frame.left[1:], 0)
            continue
        place = frame.cursor
        if place >= len(frame.left):
            frames.pop()
            continue
        frame.cursor += 1
        if not budget.spend():
            return None
        frames.extend(_taken(frame, place, records, size))
    return None


def _taken(frame: _Frame, place: int, records: dict[int, Record], size: int) -> list[_Frame]:
    """The frame after seating ``frame.left[place]`` at the open table, or none if it met one."""
    who = frame.left[place]
    if any(records[who].met[m] for m in frame.members):
        return []
    members = [*frame.members, who]
    left = frame.left[:place] + frame.left[place + 1 :]
    if len(members) == size:
        return [_Frame([*frame.tables, members], [], left, 0)]
    return [_Frame(frame.tables, members, left, place)]


def _pairing(
    tables: list[list[int]],
    byes: tuple[int, ...],
    records: dict[int, Record],
    size: int,
    round_number: int,
) -> Pairing:
    """The round's tables in pairing order: 2 seats by seat_pair, larger ones by seat_order."""
    def seated(members: list[int]) -> list[int]:
        """One table's seat order."""
        if size == 2:
            return seat_pair(members[0], members[1], records, round_number)
        return seat_order(members, records, size)

    return Pairing(
        round=round_number,
        tables=[Table(number=i + 1, seats=seated(members)) for i, members in enumerate(tables)],
        byes=sorted(byes),
    )


def seat_pair(higher: int, lower: int, records: dict[int, Record], round_number: int) -> list[int]:
    """First seat to whoever sat first less often; then to whoever sat second last; then the
    higher-ranked in odd rounds, the lower-ranked in even ones."""
    a, b = records[higher], records[lower]
    if a.seats[0] != b.seats[0]:
        return [higher, lower] if a.seats[0] < b.seats[0] else [lower, higher]
    last_a, last_b = _last_seat(a), _last_seat(b)
    if last_a != last_b and None not in (last_a, last_b):
        return [higher, lower] if last_a == 1 else [lower, higher]
    return [higher, lower] if round_number % 2 else [lower, higher]


def _last_seat(record: Record) -> int | None:
    """The seat of an entrant's latest game, or None before its first."""
    return max(record.games, key=lambda g: g.round).seat if record.games else None
