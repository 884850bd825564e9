"""H13: what the server plays for a seat whose turn clock ran out (the Rulebook's on_time_out)."""

from __future__ import annotations

from domain.whiteout_road.cards import height, sort_key
from domain.whiteout_road.commands import Commit
from domain.whiteout_road.legal import gambit_play, to_act
from domain.whiteout_road.state import Gambit, State, Unopened


def on_time_out(state: State | Unopened, seat: int) -> Commit | None:
    """The seat's lowest card (by rank, then hearts, diamonds, clubs, spades): fed to the fire in
    a beat, played as it must be in the Gambit (flung, or a spade kept as a watch)."""
    if seat not in to_act(state) or isinstance(state, Unopened):
        return None  # nobody owes a card before the road opens
    card = min(state.seats[seat].hand, key=lambda c: (height(c), sort_key(c)))
    return gambit_play(card) if isinstance(state, Gambit) else Commit(card=card, play="feed")
