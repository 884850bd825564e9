"""Breaking ties between wagons: R8 for wagons in Town or at the whiteout, R6 for the Gambit."""

from __future__ import annotations

from collections.abc import Callable

from domain.whiteout_road.cards import Wagon, height, wagon_of
from domain.whiteout_road.events import FateFlipped
from domain.whiteout_road.evolve import Steps
from domain.whiteout_road.state import Board, Cart


def wagon_tie(steps: Steps, names: list[Wagon]) -> Wagon:
    """R8: furthest, most stores, highest card aboard, then Fate; Fate run out: hearts first."""
    board = steps.state.board
    for key in (_furthest, _stores, _highest_aboard):
        names = _best(names, _by(board, key))
        if len(names) == 1:
            return names[0]
    return flip_for(steps, names) or names[0]


def gambit_winner(steps: Steps) -> Wagon | None:
    """R6: the largest flung total, then the highest flung card, then Fate (None: buried)."""
    board = steps.state.board
    names: list[Wagon] = [cart.name for cart in board.wagons if cart.flung]
    for key in (_flung_total, _highest_flung):
        names = _best(names, _by(board, key))
        if len(names) <= 1:
            return names[0] if names else None
    return flip_for(steps, names)


def flip_for(steps: Steps, names: list[Wagon]) -> Wagon | None:
    """Flip Fate until a tied wagon's suit shows; None when Fate runs out first."""
    while steps.state.board.fate:
        card = steps.state.board.fate[0]
        steps.then(FateFlipped(card=card, tie_break=True))
        if wagon_of(card) in names:
            return wagon_of(card)
    return None


def _by(board: Board, key: Callable[[Cart], int]) -> Callable[[Wagon], int]:
    """A wagon's key, read from its cart on the board."""
    return lambda name: key(board.wagon(name))


def _best(names: list[Wagon], key: Callable[[Wagon], int]) -> list[Wagon]:
    """The wagons with the highest key, in the order hearts, diamonds, clubs."""
    if not names:
        return names
    top = max(key(name) for name in names)
    return [name for name in names if key(name) == top]


def _furthest(cart: Cart) -> int:
    """The wagon's space on the road."""
    return cart.position


def _stores(cart: Cart) -> int:
    """The pip total of the stores aboard."""
    return sum(store.pips for store in cart.stores)


def _highest_aboard(cart: Cart) -> int:
    """The height of the highest card aboard (-1 for none)."""
    return max((height(store.card) for store in cart.stores), default=-1)


def _flung_total(cart: Cart) -> int:
    """The pip total flung onto the wagon in the Gambit."""
    return sum(fling.pips for fling in cart.flung)


def _highest_flung(cart: Cart) -> int:
    """The height of the highest card flung onto the wagon."""
    return max((height(fling.card) for fling in cart.flung), default=-1)
