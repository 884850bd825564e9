"""What one seat, or a spectator, may see of the table (W16): the only way state leaves the rules.

Cards appear by name only; hands, the deck order and the face-down set-aside never appear
unless the rules show them to that viewer.
"""

from __future__ import annotations

import msgspec

from domain.core.errors import BrokenInvariant
from domain.wick_ember import cards
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.legal import legal_actions, to_act
from domain.wick_ember.state import Finished, Lamplighter, Round, State, Unlit


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as everyone sees it: its flame, embers, lantern log and how many cards it holds."""

    seat: int
    name: str
    you: bool
    lit: bool
    veiled: bool
    conceded: bool
    embers: int
    cards_in_hand: int
    lantern_log: tuple[str, ...]


class NoteView(msgspec.Struct, frozen=True, kw_only=True):
    """A Lensmaker note on the looker's screen: "You saw Bryn's card: Gale"."""

    seat: int
    card: str
    text: str


class DawnView(msgspec.Struct, frozen=True, kw_only=True):
    """A card shown at dawn."""

    seat: int
    card: str


class WickEmberResultView(msgspec.Struct, frozen=True, kw_only=True):
    """How the match ended: its winners, the last round's winners and dawn reveal if any."""

    winners: tuple[int, ...]
    round_winners: tuple[int, ...]
    dawn: tuple[DawnView, ...]


class WickEmberView(msgspec.Struct, tag="wick-and-ember", frozen=True, kw_only=True):
    """The table from one seat (``you``) or from the gallery (``you`` is None)."""

    you: int | None
    round: int
    ember_target: int
    deck: str
    seats: tuple[SeatView, ...]
    turn: int | None
    hand: tuple[str, ...]
    notes: tuple[NoteView, ...]
    ash: tuple[str, ...]
    face_up: tuple[str, ...]
    set_aside: str | None
    set_aside_dealt: bool
    deck_size: int
    counter: dict[str, int]
    result: WickEmberResultView | None
    legal_actions: tuple[PlayCard, ...]


def observe(state: State | Unlit, seat: int | None) -> WickEmberView:
    """The view of one seat (None for a spectator)."""
    if isinstance(state, Unlit):
        raise BrokenInvariant("nothing is on the table before the night begins")
    current = state.round
    return WickEmberView(
        you=seat,
        round=current.number if current else 0,
        ember_target=state.night.ember_target,
        deck=state.night.deck,
        seats=tuple(_seat_view(state, other, seat) for other in range(state.night.seats)),
        turn=next(iter(to_act(state)), None),
        hand=_your_hand(state, seat),
        notes=_your_notes(state, seat),
        ash=_names(current.ash if current else ()),
        face_up=_names(current.face_up if current else ()),
        set_aside=_set_aside(current),
        set_aside_dealt=current is not None and current.set_aside is None,
        deck_size=len(current.draw_pile) if current else 0,
        counter=card_counter(state),
        result=_result(state),
        legal_actions=tuple(legal_actions(state, seat)) if seat is not None else (),
    )


def _seat_view(state: State, seat: int, viewer: int | None) -> SeatView:
    """One seat's public face."""
    lamp: Lamplighter = state.seats[seat]
    return SeatView(
        seat=seat,
        name=state.night.names[seat],
        you=seat == viewer,
        lit=lamp.lit,
        veiled=lamp.veiled,
        conceded=lamp.conceded,
        embers=lamp.embers,
        cards_in_hand=len(lamp.hand),
        lantern_log=_names(lamp.log),
    )


def _names(ids: tuple[int, ...]) -> tuple[str, ...]:
    """Card names for public cards."""
    return tuple(cards.shown_name(card) for card in ids)


def _your_hand(state: State, seat: int | None) -> tuple[str, ...]:
    """The viewer's own hidden cards; a spectator has none."""
    return () if seat is None else _names(state.seats[seat].hand)


def _your_notes(state: State, seat: int | None) -> tuple[NoteView, ...]:
    """The viewer's Lensmaker notes still standing (W7)."""
    if seat is None or state.round is None:
        return ()
    return tuple(
        NoteView(
            seat=note.target,
            card=cards.shown_name(note.card),
            text=f"You saw {state.night.names[note.target]}'s card: {cards.shown_title(note.card)}",
        )
        for note in state.round.notes
        if note.looker == seat
    )


def _set_aside(current: Round | None) -> str | None:
    """The face-down set-aside's name once the round's end has turned it up."""
    if current is None or not current.set_aside_shown or current.set_aside is None:
        return None
    return cards.shown_name(current.set_aside)


def card_counter(state: State) -> dict[str, int]:
    """Copies of each rank not yet face up: the deck minus the ash, face-up set-asides and logs."""
    counts = cards.copies(state.night.deck)
    current = state.round
    name_of = cards.name_of
    for shown in (current.ash, current.face_up) if current else ():
        for card in shown:
            counts[name_of(card)] -= 1
    for lamp in state.seats:
        for card in lamp.log:
            counts[name_of(card)] -= 1
    return counts


def _result(state: State) -> WickEmberResultView | None:
    """Winners and the last round's dawn, once the match is over."""
    if not isinstance(state, Finished):
        return None
    shown = state.round.dawn if state.round else ()
    return WickEmberResultView(
        winners=state.winners,
        round_winners=state.round_winners,
        dawn=tuple(
            DawnView(seat=seat, card=cards.shown_name(card))
            for seat, card in enumerate(shown)
            if card is not None
        ),
    )
