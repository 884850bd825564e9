"""The table as the events leave it, one type per phase: before the deal, in play, finished."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.ember.events import Turned

Step = Literal["draw", "conjure", "end"]


class Undealt(msgspec.Struct, frozen=True, kw_only=True):
    """Before the deal: the state the first event is recorded on."""


UNDEALT = Undealt()


class InPlay(msgspec.Struct, frozen=True, kw_only=True):
    """A creature, dragon part or artifact in front of a seat, and its orientation (E5)."""

    card: str
    turned: Turned = "ready"
    burned: bool = False
    drained: bool = False
    used: bool = False  # EH6: its ability used since its owner's turn last began


class Wizard(msgspec.Struct, frozen=True, kw_only=True):
    """One seat: its hand, its face-down tutor and the cards in front of it."""

    hand: tuple[str, ...] = ()
    tutor: str = ""
    cards: tuple[InPlay, ...] = ()
    conceded: bool = False


class Closing(msgspec.Struct, frozen=True, kw_only=True):
    """E9: after the Call, the seats still owed a final turn, then the last round of abilities
    (``seat`` to use one or pass, ``passes`` in a row so far)."""

    caller: int | None
    final: tuple[int, ...] = ()
    seat: int | None = None
    passes: int = 0


class Playing(msgspec.Struct, frozen=True, kw_only=True):
    """The match in play: the seats, the draw deck, the Charred pile, the Pool and whose turn.

    ``credit`` gives, for each Spectral in play, the seat holding its VP tokens; ``draws`` counts
    the random draws made (reshuffles, cards taken at random), keying each one's stream;
    ``rules_version`` is the version the table was dealt under (versions.py), and
    ``opening_draw`` whether the first player's first turn has its draw step (E7; else EH15).
    """

    names: tuple[str, ...]
    call_at: int
    turn_cap: int
    first: int
    seats: tuple[Wizard, ...]
    deck: tuple[str, ...]
    charred: tuple[str, ...] = ()
    pool: tuple[str, ...]
    face_up: int
    piles: tuple[str, ...]
    artifacts: tuple[str, ...]
    turn: int
    round: int = 0
    step: Step = "draw"
    credit: tuple[tuple[str, int], ...] = ()
    call: Closing | None = None
    draws: int = 0
    rules_version: str = "1"
    opening_draw: bool = False


class Finished(msgspec.Struct, frozen=True, kw_only=True):
    """The match is over: the table as it ended, tutors revealed, scores and winners."""

    board: Playing
    scores: tuple[int, ...]
    sums: tuple[int, ...]
    winners: tuple[int, ...]


State = Playing | Finished


def with_wizard(state: Playing, seat: int, **changes: Any) -> Playing:
    """The state with one seat's fields changed."""
    seats = list(state.seats)
    seats[seat] = msgspec.structs.replace(seats[seat], **changes)
    return msgspec.structs.replace(state, seats=tuple(seats))


def owner_of(state: Playing, card: str) -> int | None:
    """The seat a card in play lies in front of, or None."""
    for seat, wizard in enumerate(state.seats):
        if any(held.card == card for held in wizard.cards):
            return seat
    return None


def in_play(state: Playing, card: str) -> InPlay | None:
    """A card in play, with its orientation, or None."""
    for wizard in state.seats:
        for held in wizard.cards:
            if held.card == card:
                return held
    return None


def seats_in(state: Playing) -> tuple[int, ...]:
    """Seats that have not conceded, in seat order."""
    return tuple(seat for seat, wizard in enumerate(state.seats) if not wizard.conceded)


def next_seat(state: Playing, seat: int) -> int:
    """The next seat clockwise that has not conceded (the seat itself if it is the last)."""
    count = len(state.seats)
    for step in range(1, count + 1):
        other = (seat + step) % count
        if not state.seats[other].conceded:
            return other
    return seat
