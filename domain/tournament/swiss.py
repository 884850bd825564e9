"""Swiss pairing: the top of the ranking meets the highest-ranked entrant it has not met.

The search backtracks (not greedy only): when a choice leaves the rest unpairable without a
rematch it tries the next opponent, and the next bye. Only when no rematch-free pairing exists
(or the search passes SEARCH_STEPS) does it pair top-down allowing rematches, least-met first.
"""

from __future__ import annotations

from typing import Any

from .model import Pairing, Table
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


def pair_swiss(ranked: list[int], records: dict[int, Record], round_number: int) -> Pairing:
    """A Swiss round for the playing entrants in ranking order (best first)."""
    candidates: list[int | None] = [None]
    if len(ranked) % 2:
        unbyed = [n for n in reversed(ranked) if not records[n].byes]
        candidates = list(unbyed or reversed(ranked))
    budget = _Budget()
    for bye in candidates:
        rest = [n for n in ranked if n != bye]
        pairs = _search(rest, records, budget)
        if pairs is not None:
            return _pairing(pairs, bye, records, ranked, round_number)
        if budget.left < 0:
            break
    bye = candidates[0]
    pairs = _least_met([n for n in ranked if n != bye], records)
    return _pairing(pairs, bye, records, ranked, round_number)


def _search(
    rest: list[int], records: dict[int, Record], budget: _Budget
) -> list[tuple[int, int]] | None:
    """Rematch-free pairs of ``rest`` (top first, highest-ranked opponent first), or None.

    Depth-first with an explicit stack (a field of thousands would pass Python's recursion
    limit): each frame holds the entrants still unpaired and the opponent tried for the first.
    """
    frames: list[list[Any]] = [[rest, 0]]
    while frames:
        frame = frames[-1]
        left = frame[0]
        if not left:
            return [(f[0][0], f[0][f[1]]) for f in frames[:-1]]
        frame[1] += 1
        i = frame[1]
        if i >= len(left):
            frames.pop()
            continue
        if not budget.spend():
            return None
        if not records[left[0]].met[left[i]]:
            frames.append([left[1:i] + left[i + 1 :], 0])
    return None


def _least_met(rest: list[int], records: dict[int, Record]) -> list[tuple[int, int]]:
    """Top-down pairs allowing rematches: each top meets the one it met least, best ranked first."""
    pairs = []
    left = list(rest)
    while left:
        top = left.pop(0)
        opponent = min(left, key=lambda n: records[top].met[n])
        left.remove(opponent)
        pairs.append((top, opponent))
    return pairs


def _pairing(
    pairs: list[tuple[int, int]],
    bye: int | None,
    records: dict[int, Record],
    ranked: list[int],
    round_number: int,
) -> Pairing:
    """The round's tables in pairing order, each seated by seat_pair."""
    tables = [
        Table(number=i + 1, seats=seat_pair(a, b, records, round_number))
        for i, (a, b) in enumerate(pairs)
    ]
    return Pairing(round=round_number, tables=tables, byes=[] if bye is None else [bye])


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
