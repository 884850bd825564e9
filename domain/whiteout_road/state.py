"""The road as the events leave it, one type per phase: camp, a beat, the Gambit, over.

``Camp`` is before the first deal and between nights (never at rest: the next night is dealt in
the same decision).  ``Beat`` and ``Gambit`` wait on the seats that owe a card.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.phases import become as become  # the phases below move through it
from domain.whiteout_road.cards import WAGONS, Wagon
from domain.whiteout_road.events import Commitment, Ending, Repayment

replace = msgspec.structs.replace


class Road(msgspec.Struct, frozen=True, kw_only=True):
    """What stays fixed for the match: players, burial mark, hand size, a practice deal."""

    names: tuple[str, ...]
    burial_mark: int
    hand_size: int
    practice_deal: tuple[tuple[str, ...], ...] = ()

    @property
    def players(self) -> int:
        """How many players the table was opened with."""
        return len(self.names)


class Store(msgspec.Struct, frozen=True, kw_only=True):
    """A card by a wagon and its owner: stores aboard (at the pips caught), a push, a flung card."""

    seat: int
    card: str
    pips: int = 0


class Cart(msgspec.Struct, frozen=True, kw_only=True):
    """One wagon on the Road (spaces 0 to 6): its stores aboard, pushes and Gambit flings."""

    name: Wagon
    position: int = 0
    stores: tuple[Store, ...] = ()
    pushes: tuple[Store, ...] = ()
    flung: tuple[Store, ...] = ()

    @property
    def laden(self) -> bool:
        """A wagon with stores aboard."""
        return bool(self.stores)


class Traveller(msgspec.Struct, frozen=True, kw_only=True):
    """One seat: gratitude over the match, and tonight's hand, watch-pile and pending card."""

    gratitude: int = 0
    nights: tuple[int, ...] = ()
    hand: tuple[str, ...] = ()
    watch: tuple[str, ...] = ()
    pending: Commitment | None = None
    set_aside: tuple[str, ...] = ()
    conceded: bool = False


class Board(msgspec.Struct, frozen=True, kw_only=True):
    """Tonight's road: wagons, snow, the Fate deck and its discard, revealed and lost cards."""

    night: int
    wagons: tuple[Cart, ...] = tuple(Cart(name=name) for name in WAGONS)
    snow: int = 0
    fate: tuple[str, ...] = ()
    fate_discard: tuple[str, ...] = ()
    revealed: tuple[Commitment, ...] = ()
    lost: tuple[str, ...] = ()
    ending: Ending | None = None
    through: Wagon | None = None

    def wagon(self, name: Wagon) -> Cart:
        """One wagon by name."""
        return self.wagons[WAGONS.index(name)]


class NightResult(msgspec.Struct, frozen=True, kw_only=True):
    """How a finished night ended and what it paid each seat."""

    night: int
    ending: Ending
    through: Wagon | None
    lines: tuple[Repayment, ...]


class Unopened(msgspec.Struct, frozen=True, kw_only=True):
    """Before the road opens: the state the first event is recorded on."""


UNOPENED = Unopened()


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """What every phase holds: the road, the seats, tonight's board, the nights already paid."""

    road: Road
    seats: tuple[Traveller, ...]
    board: Board | None = None
    nights: tuple[NightResult, ...] = ()


class Camp(Table, frozen=True, kw_only=True):
    """Before the first deal, or a night just ended (its board still lies out)."""


class Beat(Table, frozen=True, kw_only=True):
    """A night in play; ``owing`` are the seats that still owe this beat's card."""

    owing: tuple[int, ...] = ()


class Gambit(Table, frozen=True, kw_only=True):
    """The whiteout's Gambit; ``owing`` are the seats that still owe their card."""

    owing: tuple[int, ...] = ()


class Over(Table, frozen=True, kw_only=True):
    """The match is over; the last board still lies out."""

    winners: tuple[int, ...] = ()


State = Camp | Beat | Gambit | Over
def with_seat(state: Any, seat: int, **changes: Any) -> Any:
    """The state with one seat's fields changed."""
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **changes)
    return replace(state, seats=tuple(seats))


def with_board(state: Any, **changes: Any) -> Any:
    """The state with fields of tonight's board changed."""
    return replace(state, board=replace(state.board, **changes))


def with_wagon(state: Any, name: Wagon, **changes: Any) -> Any:
    """The state with one wagon's fields changed."""
    wagons = tuple(replace(w, **changes) if w.name == name else w for w in state.board.wagons)
    return with_board(state, wagons=wagons)


def seats_in(state: Table) -> tuple[int, ...]:
    """Seats that have not conceded."""
    return tuple(seat for seat, t in enumerate(state.seats) if not t.conceded)


def holders(state: Table) -> tuple[int, ...]:
    """Seats still in that hold cards: the ones that must play."""
    return tuple(seat for seat, t in enumerate(state.seats) if t.hand and not t.conceded)


def owing(state: State | Unopened) -> tuple[int, ...]:
    """The seats that still owe a card now (none in camp or once over)."""
    return state.owing if isinstance(state, (Beat, Gambit)) else ()
