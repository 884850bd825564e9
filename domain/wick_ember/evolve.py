"""Recording events: a plain fold that never validates and never needs the generator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from domain.core.steps import Steps
from domain.wick_ember.events import (
    CardDiscarded,
    CardPlayed,
    CardSeen,
    CardsPassed,
    DawnBroke,
    Event,
    FlamesCompared,
    FlameSnuffed,
    GuessJudged,
    NightBegan,
    NightEnded,
    ReplacementDrawn,
    RoundDealt,
    RoundWon,
    SeatConceded,
    SeatVeiled,
    SetAsideRevealed,
    TurnBegan,
)
from domain.wick_ember.state import (
    BetweenRounds,
    Finished,
    Lamplighter,
    Night,
    Note,
    Playing,
    Round,
    State,
    Unlit,
    with_round,
    with_seat,
)

replace = msgspec.structs.replace


# What a Steps starts from: a table already lit (deciding a command) or the unlit one (the setup).
Folded = TypeVar("Folded", State, State | Unlit)


def evolve(state: State | Unlit, event: Event) -> State:
    """The state after one event; Lensmaker notes on cards that left their hand are dropped."""
    return _drop_stale_notes(_RECORDERS[type(event)](state, event))


def _began(_: Unlit, event: NightBegan) -> BetweenRounds:
    """The table is set; nobody holds a card yet."""
    night = Night(
        names=event.names,
        deck=event.deck,
        ember_target=event.ember_target,
        practice_deal=event.practice_deal,
    )
    return BetweenRounds(night=night, seats=tuple(Lamplighter() for _ in event.names))


def _dealt(state: BetweenRounds, event: RoundDealt) -> Playing:
    """A fresh round: every seat still in is lit with one card; logs and ash start empty."""
    seats = tuple(_fresh(lamp, card) for lamp, card in zip(state.seats, event.hands))
    layout = Round(
        number=event.round,
        opener=event.opener,
        set_aside=event.set_aside,
        face_up=event.face_up,
        draw_pile=event.draw_pile,
    )
    return Playing(night=state.night, seats=seats, round=layout)


def _fresh(lamp: Lamplighter, card: int | None) -> Lamplighter:
    """A seat at the start of a round: embers and concession kept, everything else reset."""
    hand = () if card is None else (card,)
    return Lamplighter(embers=lamp.embers, hand=hand, lit=not lamp.conceded, conceded=lamp.conceded)


def _turn_began(state: Playing, event: TurnBegan) -> Playing:
    """The seat's veil drops and it takes the top card of the draw pile."""
    hand = (*state.seats[event.seat].hand, event.drew)
    state = with_seat(state, event.seat, hand=hand, veiled=False)
    state = with_round(state, draw_pile=state.round.draw_pile[1:])
    return replace(state, turn=event.seat)


def _played(state: Playing, event: CardPlayed) -> Playing:
    """The card moves from the hand to the lantern log; nobody is to act while it resolves."""
    lamp = state.seats[event.seat]
    state = with_seat(
        state, event.seat, hand=_without(lamp.hand, event.card), log=(*lamp.log, event.card)
    )
    return replace(state, turn=None)


def _seen(state: Playing, event: CardSeen) -> Playing:
    """The looker keeps a note of the exact card it saw."""
    note = Note(looker=event.seat, target=event.target, card=event.card)
    if note in state.round.notes:
        return state
    return with_round(state, notes=(*state.round.notes, note))


def _veiled(state: Playing, event: SeatVeiled) -> Playing:
    """The seat is veiled."""
    return with_seat(state, event.seat, veiled=True)


def _discarded(state: Playing, event: CardDiscarded) -> Playing:
    """The card leaves the hand face up for the ash."""
    hand = _without(state.seats[event.seat].hand, event.card)
    state = with_seat(state, event.seat, hand=hand)
    return with_round(state, ash=(*state.round.ash, event.card))


def _replaced(state: Playing, event: ReplacementDrawn) -> Playing:
    """The seat takes the top card, or the face-down set-aside."""
    state = with_seat(state, event.seat, hand=(*state.seats[event.seat].hand, event.card))
    if event.from_set_aside:
        return with_round(state, set_aside=None)
    return with_round(state, draw_pile=state.round.draw_pile[1:])


def _passed(state: Playing, event: CardsPassed) -> Playing:
    """Each seat in the pass takes the hand of the one before it, all at once."""
    ring = event.seats
    hands = [state.seats[seat].hand for seat in ring]
    for index, seat in enumerate(ring):
        state = with_seat(state, seat, hand=hands[index - 1])
    return state


def _snuffed(state: Playing, event: FlameSnuffed | SeatConceded) -> Playing:
    """The flame goes out; the hand goes face up into the ash."""
    state = with_seat(state, event.seat, hand=(), lit=False, veiled=False)
    state = with_round(state, ash=(*state.round.ash, *event.revealed))
    return replace(state, turn=None) if state.turn == event.seat else state


def _conceded(state: Playing, event: SeatConceded) -> Playing:
    """The seat is out of the match: snuffed now and dealt no more cards."""
    return with_seat(_snuffed(state, event), event.seat, conceded=True)


def _dawn(state: Playing, event: DawnBroke) -> Playing:
    """The lit seats' hidden cards are shown."""
    return with_round(state, dawn=event.revealed)


def _won(state: Playing, event: RoundWon) -> BetweenRounds:
    """Each winner banks an ember; the round is over, its veils and notes are gone (W7, W9)."""
    seats = tuple(
        replace(lamp, embers=lamp.embers + (seat in event.winners), veiled=False)
        for seat, lamp in enumerate(state.seats)
    )
    return BetweenRounds(
        night=state.night,
        seats=seats,
        round=replace(state.round, notes=()),
        round_winners=event.winners,
    )


def _set_aside_shown(state: BetweenRounds, _: SetAsideRevealed) -> BetweenRounds:
    """The face-down set-aside is face up now (if it is still there)."""
    return with_round(state, set_aside_shown=True)


def _ended(state: BetweenRounds, event: NightEnded) -> Finished:
    """The match is over."""
    return Finished(
        night=state.night,
        seats=state.seats,
        round=state.round,
        round_winners=state.round_winners,
        winners=event.winners,
    )


def _unchanged(state: Any, _: Any) -> Any:
    """An event that only tells what happened (its consequences are events of their own)."""
    return state


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The hand with one card taken out."""
    kept = list(hand)
    kept.remove(card)
    return tuple(kept)


def _drop_stale_notes(state: State) -> State:
    """W7: a note lasts only while its exact card stays in the target's hand."""
    if not isinstance(state, Playing) or not state.round.notes:
        return state
    kept = tuple(n for n in state.round.notes if n.card in state.seats[n.target].hand)
    return with_round(state, notes=kept) if kept != state.round.notes else state


_RECORDERS: dict[type, Callable[[Any, Any], Any]] = {
    NightBegan: _began,
    RoundDealt: _dealt,
    TurnBegan: _turn_began,
    CardPlayed: _played,
    GuessJudged: _unchanged,
    CardSeen: _seen,
    FlamesCompared: _unchanged,
    SeatVeiled: _veiled,
    CardDiscarded: _discarded,
    ReplacementDrawn: _replaced,
    CardsPassed: _passed,
    FlameSnuffed: _snuffed,
    SeatConceded: _conceded,
    DawnBroke: _dawn,
    RoundWon: _won,
    SetAsideRevealed: _set_aside_shown,
    NightEnded: _ended,
}


def steps_from(state: Folded) -> Steps[Folded, Event]:
    """Decide step by step from a state, each rule seeing the table as it is by then."""
    return Steps(state, evolve)
