"""Repayment, each night (R9): one line per seat, as the rulebook lists it, per rules version."""

from __future__ import annotations

from domain.whiteout_road.cards import Wagon, is_spade
from domain.whiteout_road.events import Repayment
from domain.whiteout_road.state import Board, Table
from domain.whiteout_road.versions import Ruleset

THROUGH_FACTOR = 3
PUSH_PAY = 2
SPADE_WAGE, OTHER_WAGE = 3, 1
LONG_WATCH = 5


def repayment(state: Table, ruleset: Ruleset) -> tuple[Repayment, ...]:
    """Every seat's line for the night just ended (zeros for a conceded seat)."""
    longest = max((len(t.watch) for t in state.seats if not t.conceded), default=0)
    return tuple(_line(state, seat, longest, ruleset) for seat in range(len(state.seats)))


def _line(state: Table, seat: int, longest: int, ruleset: Ruleset) -> Repayment:
    """One seat's stores, pushes, wages and Long Watch."""
    traveller, board = state.seats[seat], state.board
    assert board is not None
    if traveller.conceded:
        return Repayment(seat=seat)
    through, lost = _stores(board, seat, board.through)
    wages = sum(SPADE_WAGE if is_spade(card) else OTHER_WAGE for card in traveller.watch)
    parts = {
        "stores_through": THROUGH_FACTOR * through,
        "stores_lost": -lost,
        "pushes": PUSH_PAY * _pushes(board, seat, board.through),
        "wages": wages,
        "long_watch": _long_watch(len(traveller.watch), longest, ruleset),
    }
    return Repayment(seat=seat, **parts, total=sum(parts.values()))


def _long_watch(pile: int, longest: int, ruleset: Ruleset) -> int:
    """R9: the largest watch-pile +5, each tied seat the full +5; at zero cards, version 1 pays
    nobody (H8) and version 2 pays every seat still in (they all tie)."""
    if pile != longest:
        return 0
    if longest == 0 and not ruleset.long_watch_at_zero:
        return 0  # H8, rules version 1
    return LONG_WATCH


def _stores(board: Board, seat: int, through: Wagon | None) -> tuple[int, int]:
    """The seat's pips aboard the through-wagon and aboard the others (both 0 on a buried road)."""
    if through is None:
        return 0, 0
    aboard = [(cart.name, s.pips) for cart in board.wagons for s in cart.stores if s.seat == seat]
    return (
        sum(pips for name, pips in aboard if name == through),
        sum(pips for name, pips in aboard if name != through),
    )


def _pushes(board: Board, seat: int, through: Wagon | None) -> int:
    """How many of the seat's pushes lie by the through-wagon."""
    if through is None:
        return 0
    return sum(push.seat == seat for push in board.wagon(through).pushes)
