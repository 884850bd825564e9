"""What a seat may do now: the single source decide, the views and the API agree with."""

from __future__ import annotations

from domain.wick_ember.cards import (
    CHOOSES_A_SEAT,
    FORCES_MOTH_DUCHESS,
    GUESSES,
    HEARTHFLAME,
    LAMP_WARDEN,
    MOTH_DUCHESS,
    RANKS,
    name_of,
)
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.state import Playing, State, Unlit, open_seats


def to_act(state: State | Unlit) -> tuple[int, ...]:
    """The seat whose turn it is; empty between rounds and once the match is over."""
    if isinstance(state, Playing) and state.turn is not None:
        return (state.turn,)
    return ()


def targets(state: Playing, seat: int) -> tuple[int, ...]:
    """W5: the seats a card may choose: every other lit, unveiled seat."""
    return tuple(other for other in open_seats(state) if other != seat)


def forcing_card(hand: tuple[int, ...]) -> str | None:
    """W12: the card (Sootsweep or Ferrywoman) that forces the Moth Duchess out, if any."""
    names = [name_of(card) for card in hand]
    if MOTH_DUCHESS not in names:
        return None
    return next((name for name in names if name in FORCES_MOTH_DUCHESS), None)


def playable(hand: tuple[int, ...]) -> list[str]:
    """The card names a seat may play from its hand, in rank order (W12)."""
    if forcing_card(hand):
        return [MOTH_DUCHESS]
    names = {name_of(card) for card in hand} - {HEARTHFLAME}
    return sorted(names, key=RANKS.__getitem__)


def legal_actions(state: State | Unlit, seat: int) -> list[PlayCard]:
    """Every complete play the seat may send now: card, then target, then guess, in rank order."""
    if seat not in to_act(state):
        return []
    assert isinstance(state, Playing)
    hand = state.seats[seat].hand
    return [play for name in playable(hand) for play in plays_of(state, seat, name)]


def plays_of(state: Playing, seat: int, name: str) -> list[PlayCard]:
    """Every legal way to play one card: each target, and for a Lamp Warden each guess (W5, W6)."""
    chosen = targets(state, seat) if name in CHOOSES_A_SEAT else ()
    if not chosen:
        return [PlayCard(card=name)]
    guesses = GUESSES if name == LAMP_WARDEN else (None,)
    return [PlayCard(card=name, target=other, guess=guess) for other in chosen for guess in guesses]
