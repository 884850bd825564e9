"""Recording: each event applied to the state as decided. Never validates, never raises."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from domain.core.steps import Steps
from domain.ember import events as ev
from domain.ember.cards import CARDS, CREATURES, DRAGONS
from domain.ember.state import (
    UNDEALT,
    Closing,
    Finished,
    InPlay,
    Playing,
    State,
    Undealt,
    Wizard,
    with_wizard,
)

replace = msgspec.structs.replace
ADVANCED = {"exhausted": "recovering", "recovering": "ready", "ready": "ready"}


def _without(cards: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    """The cards with each of ``gone`` taken out once."""
    left = list(cards)
    for card in gone:
        left.remove(card)
    return tuple(left)


def _turn_card(state: Playing, card: str, **changes: Any) -> Playing:
    """The state with one card in play changed."""
    seats = tuple(
        replace(w, cards=tuple(replace(h, **changes) if h.card == card else h for h in w.cards))
        for w in state.seats
    )
    return replace(state, seats=seats)


def _dealt(_: Undealt, e: ev.Dealt) -> Playing:
    """The table is set (E1, E2)."""
    seats = tuple(Wizard(hand=hand, tutor=tutor) for hand, tutor in zip(e.hands, e.tutors))
    piles = tuple(part for dragon in DRAGONS.values() for part in dragon.parts)
    return Playing(names=e.names, call_at=e.call_at, turn_cap=e.turn_cap, first=e.first,
                   seats=seats, deck=e.deck, pool=CREATURES, face_up=e.face_up, piles=piles,
                   artifacts=e.artifacts, turn=e.first, rules_version=e.rules_version,
                   opening_draw=e.opening_draw)


def _turn_began(s: Playing, e: ev.TurnBegan) -> Playing:
    """E5: the seat's non-Ready cards advance one step; its draw step is next (E7), but for the
    first turn of all at a table without its opening draw (EH15)."""
    mine = tuple(replace(held, used=False) if held.burned
                 else replace(held, turned=ADVANCED[held.turned], used=False)
                 for held in s.seats[e.seat].cards)
    state = with_wizard(s, e.seat, cards=mine)
    opening = e.round == 1 and e.seat == s.first and not s.opening_draw
    return replace(state, turn=e.seat, round=e.round, step="conjure" if opening else "draw")


def _group_revealed(s: Playing, e: ev.GroupRevealed) -> Playing:
    return replace(s, face_up=e.vp)


def _cards_drawn(s: Playing, e: ev.CardsDrawn) -> Playing:
    hand = s.seats[e.seat].hand + e.cards
    return replace(with_wizard(s, e.seat, hand=hand), deck=s.deck[len(e.cards):])


def _deck_reshuffled(s: Playing, e: ev.DeckReshuffled) -> Playing:
    return replace(s, deck=s.deck + e.deck, charred=(), draws=s.draws + 1)


def _discard(s: Playing, seat: int, cards: tuple[str, ...]) -> Playing:
    """Cards from a hand onto the Charred pile."""
    state = with_wizard(s, seat, hand=_without(s.seats[seat].hand, cards))
    return replace(state, charred=s.charred + cards)


def _draw_taken(s: Playing, e: ev.DrawTaken) -> Playing:
    recycled = () if e.recycled is None else (e.recycled,)
    return replace(_discard(s, e.seat, recycled), step="conjure")


def _hand_refreshed(s: Playing, e: ev.HandRefreshed) -> Playing:
    return replace(_discard(s, e.seat, e.cards), step="end")


def _conjured(s: Playing, e: ev.Conjured) -> Playing:
    """The cost paid, the card claimed from the Pool, a pile or the artifacts (E6)."""
    state = _discard(s, e.seat, e.paid)
    state = replace(state, pool=tuple(c for c in s.pool if c != e.card),
                    piles=tuple(c for c in s.piles if c != e.card),
                    artifacts=tuple(c for c in s.artifacts if c != e.card), step="end")
    for seat, wizard in enumerate(state.seats):  # a Spectral moves on from its last host
        if any(h.card == e.card for h in wizard.cards):
            state = with_wizard(state, seat, cards=tuple(h for h in wizard.cards
                                                         if h.card != e.card))
    state = with_wizard(state, e.onto, cards=(*state.seats[e.onto].cards, InPlay(card=e.card)))
    if CARDS[e.card].spectral:
        credit = (*(c for c in state.credit if c[0] != e.card), (e.card, e.seat))
        state = replace(state, credit=credit)
    return state


def _turn_ended(s: Playing, e: ev.TurnEnded) -> Playing:
    state = _discard(s, e.seat, e.discarded)
    call = state.call
    if e.called:
        order = [(e.seat + k) % len(s.seats) for k in range(1, len(s.seats))]
        call = Closing(caller=e.seat,
                       final=tuple(seat for seat in order if not s.seats[seat].conceded))
    elif call is not None and e.seat in call.final:
        call = replace(call, final=tuple(seat for seat in call.final if seat != e.seat))
    return replace(state, call=call, step="end")


def _ability_used(s: Playing, e: ev.AbilityUsed) -> Playing:
    """E5, E6: the card is exhausted; a Drain burns its artifact for good."""
    if e.power == "drain":
        return _turn_card(s, e.card, turned="exhausted", burned=True, drained=True, used=True)
    state = _turn_card(s, e.card, turned="exhausted", used=True)
    return _after_closing_go(state, e.seat)


def _after_closing_go(s: Playing, seat: int, passed: bool = False) -> Playing:
    """E9: in the last round, the go passes clockwise; passes in a row are counted."""
    call = s.call
    if call is None or call.seat != seat:
        return s
    passes = call.passes + 1 if passed else 0
    return replace(s, call=replace(call, seat=_next_in(s, seat), passes=passes))


def _next_in(s: Playing, seat: int) -> int:
    """The next seat clockwise still in the match."""
    count = len(s.seats)
    return next((seat + k) % count for k in range(1, count + 1)
                if not s.seats[(seat + k) % count].conceded)


def _archmage_played(s: Playing, e: ev.ArchmagePlayed) -> Playing:
    return _after_closing_go(_discard(s, e.seat, (e.archmage,)), e.seat)


def _card_turned(s: Playing, e: ev.CardTurned) -> Playing:
    return _turn_card(s, e.card, turned=e.turned)


def _creature_burned(s: Playing, e: ev.CreatureBurned) -> Playing:
    return _turn_card(s, e.card, burned=True)


def _creature_regenerated(s: Playing, e: ev.CreatureRegenerated) -> Playing:
    return _turn_card(s, e.card, burned=False, turned="ready")


def _cards_taken(s: Playing, e: ev.CardsTaken) -> Playing:
    state = with_wizard(s, e.source, hand=_without(s.seats[e.source].hand, e.cards))
    state = with_wizard(state, e.seat, hand=state.seats[e.seat].hand + e.cards)
    return replace(state, draws=s.draws + 1)


def _cards_discarded(s: Playing, e: ev.CardsDiscarded) -> Playing:
    return replace(_discard(s, e.seat, e.cards), draws=s.draws + 1)


def _charred_taken(s: Playing, e: ev.CharredTaken) -> Playing:
    state = with_wizard(s, e.seat, hand=s.seats[e.seat].hand + e.cards)
    return replace(state, charred=_without(s.charred, e.cards))


def _closing_began(s: Playing, e: ev.ClosingBegan) -> Playing:
    caller = None if s.call is None else s.call.caller
    return replace(s, call=Closing(caller=caller, seat=e.seat), step="end")


def _passed(s: Playing, e: ev.Passed) -> Playing:
    return _after_closing_go(s, e.seat, passed=True)


def _seat_conceded(s: Playing, e: ev.SeatConceded) -> Playing:
    state = with_wizard(s, e.seat, conceded=True)
    call = state.call
    if call is not None and e.seat in call.final:
        call = replace(call, final=tuple(seat for seat in call.final if seat != e.seat))
    if call is not None and call.seat == e.seat:
        call = replace(call, seat=_next_in(state, e.seat), passes=0)
    return replace(state, call=call)


def _match_ended(s: Playing, e: ev.MatchEnded) -> Finished:
    return Finished(board=s, scores=e.scores, sums=e.sums, winners=e.winners)


_RECORDERS: dict[type, Callable[[Any, Any], Any]] = {
    ev.Dealt: _dealt,
    ev.TurnBegan: _turn_began,
    ev.GroupRevealed: _group_revealed,
    ev.CardsDrawn: _cards_drawn,
    ev.DeckReshuffled: _deck_reshuffled,
    ev.DrawTaken: _draw_taken,
    ev.HandRefreshed: _hand_refreshed,
    ev.Conjured: _conjured,
    ev.TurnEnded: _turn_ended,
    ev.AbilityUsed: _ability_used,
    ev.ArchmagePlayed: _archmage_played,
    ev.CardTurned: _card_turned,
    ev.CreatureBurned: _creature_burned,
    ev.CreatureRegenerated: _creature_regenerated,
    ev.CardsTaken: _cards_taken,
    ev.CardsDiscarded: _cards_discarded,
    ev.CharredTaken: _charred_taken,
    ev.ClosingBegan: _closing_began,
    ev.Passed: _passed,
    ev.SeatConceded: _seat_conceded,
    ev.MatchEnded: _match_ended,
}


# What a Steps starts from: a dealt table (deciding a command) or the undealt one (the deal).
Folded = TypeVar("Folded", State, State | Undealt)


def evolve(state: State | Undealt | None, event: ev.Event) -> State:
    """The state after one event."""
    return _RECORDERS[type(event)](UNDEALT if state is None else state, event)


def steps_from(state: Folded) -> Steps[Folded, ev.Event]:
    """Decide step by step from a state through this game's evolve."""
    return Steps(state, evolve)
