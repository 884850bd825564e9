"""Seats are numbered from 0 clockwise in joining order; play proceeds to the next higher seat."""

from collections.abc import Iterable


def clockwise_from(start: int, count: int) -> list[int]:
    """All seats in clockwise order beginning with ``start`` itself."""
    return [(start + step) % count for step in range(count)]


def next_clockwise(start: int, count: int, eligible: Iterable[int]) -> int | None:
    """The first eligible seat after ``start`` going clockwise (``start`` itself last)."""
    allowed = set(eligible)
    for seat in [*clockwise_from(start, count)[1:], start]:
        if seat in allowed:
            return seat
    return None


def first_clockwise(start: int, count: int, eligible: Iterable[int]) -> int | None:
    """The first eligible seat found clockwise beginning with ``start`` itself."""
    allowed = set(eligible)
    for seat in clockwise_from(start, count):
        if seat in allowed:
            return seat
    return None
