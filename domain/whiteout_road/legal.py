"""What a seat may do now: the single source decide, the views and the API agree with."""

from __future__ import annotations

from domain.whiteout_road.cards import Wagon, in_order, is_spade
from domain.whiteout_road.commands import Commit
from domain.whiteout_road.state import Gambit, State, Table, Unopened, owing

TRAIL_SPACES = (3, 4)


def to_act(state: State | Unopened) -> tuple[int, ...]:
    """Every seat that still owes a card this beat or in the Gambit."""
    return owing(state)


def trail_wagons(state: Table) -> tuple[Wagon, ...]:
    """The wagons a spade may break trail for: laden, on space 3 or 4."""
    assert state.board is not None
    return tuple(c.name for c in state.board.wagons if c.laden and c.position in TRAIL_SPACES)


def legal_actions(state: State | Unopened, seat: int) -> list[Commit]:
    """Every complete commitment the seat may send: by card, then play, then wagon."""
    if seat not in to_act(state) or isinstance(state, Unopened):
        return []  # nobody owes a card before the road opens
    hand = in_order(state.seats[seat].hand)
    if isinstance(state, Gambit):
        return [gambit_play(card) for card in hand]
    return [play for card in hand for play in beat_plays(state, card)]


def beat_plays(state: Table, card: str) -> list[Commit]:
    """R4: any card feeds; a heart, diamond or club loads or pushes; a spade may break trail."""
    plays = [Commit(card=card, play="feed")]
    if is_spade(card):
        return plays + [
            Commit(card=card, play="break_trail", wagon=wagon) for wagon in trail_wagons(state)
        ]
    return [*plays, Commit(card=card, play="load"), Commit(card=card, play="push")]


def gambit_play(card: str) -> Commit:
    """R6: a heart, diamond or club is flung onto its wagon; a spade keeps watch."""
    return Commit(card=card, play="watch" if is_spade(card) else "fling")
