"""The table as the events leave it, one type per phase: between rounds, playing, finished."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.wick_ember.cards import Deck


class Night(msgspec.Struct, frozen=True, kw_only=True):
    """What stays fixed for the whole match: seats, deck, ember target, a practice deal."""

    names: tuple[str, ...]
    deck: Deck
    ember_target: int
    practice_deal: tuple[tuple[int, ...], ...] = ()

    @property
    def seats(self) -> int:
        """How many seats the table was created with."""
        return len(self.names)


class Lamplighter(msgspec.Struct, frozen=True, kw_only=True):
    """One seat: embers banked over the match, and this round's hand, lantern log and flame."""

    embers: int = 0
    hand: tuple[int, ...] = ()
    log: tuple[int, ...] = ()
    lit: bool = False
    veiled: bool = False
    conceded: bool = False


class Note(msgspec.Struct, frozen=True, kw_only=True):
    """A Lensmaker note: the looker saw this physical card in the target's hand (W7)."""

    looker: int
    target: int
    card: int


class Round(msgspec.Struct, frozen=True, kw_only=True):
    """The cards of the round outside the hands and lantern logs, and what it has revealed."""

    number: int
    opener: int
    set_aside: int | None
    face_up: tuple[int, ...]
    draw_pile: tuple[int, ...]
    ash: tuple[int, ...] = ()
    notes: tuple[Note, ...] = ()
    dawn: tuple[int | None, ...] = ()
    set_aside_shown: bool = False


class Unlit(msgspec.Struct, frozen=True, kw_only=True):
    """Before the night begins: the state the first event is recorded on."""


UNLIT = Unlit()


class BetweenRounds(msgspec.Struct, frozen=True, kw_only=True):
    """No round in play: before the first deal, or a round just won (its cards still lie out)."""

    night: Night
    seats: tuple[Lamplighter, ...]
    round: Round | None = None
    round_winners: tuple[int, ...] = ()


class Playing(msgspec.Struct, frozen=True, kw_only=True):
    """A round in play; ``turn`` is the seat holding two cards (None while a play resolves)."""

    night: Night
    seats: tuple[Lamplighter, ...]
    round: Round
    turn: int | None = None


class Finished(msgspec.Struct, frozen=True, kw_only=True):
    """The match is over; the last round's cards still lie out."""

    night: Night
    seats: tuple[Lamplighter, ...]
    round: Round | None
    round_winners: tuple[int, ...]
    winners: tuple[int, ...]


State = BetweenRounds | Playing | Finished


def with_seat(state: Any, seat: int, **changes: Any) -> Any:
    """The state with one seat's fields changed."""
    seats = list(state.seats)
    seats[seat] = msgspec.structs.replace(seats[seat], **changes)
    return msgspec.structs.replace(state, seats=tuple(seats))


def with_round(state: Any, **changes: Any) -> Any:
    """The state with fields of the current round changed."""
    return msgspec.structs.replace(state, round=msgspec.structs.replace(state.round, **changes))


def lit_seats(state: State) -> tuple[int, ...]:
    """Seats whose flame still burns this round, in seat order."""
    return tuple(seat for seat, lamp in enumerate(state.seats) if lamp.lit)


def open_seats(state: State) -> tuple[int, ...]:
    """Seats that are lit and not veiled: the ones a card can choose or a Ferrywoman moves."""
    return tuple(seat for seat, lamp in enumerate(state.seats) if lamp.lit and not lamp.veiled)


def seats_in(state: State) -> tuple[int, ...]:
    """Seats that have not conceded the match."""
    return tuple(seat for seat, lamp in enumerate(state.seats) if not lamp.conceded)
