"""H11: what the server plays for a seat whose turn clock ran out (the Rulebook's on_time_out)."""

from __future__ import annotations

from domain.core.seats import clockwise_from
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.legal import playable, plays_of
from domain.wick_ember.state import Playing, State, Unlit


def on_time_out(state: State | Unlit, seat: int) -> PlayCard | None:
    """The lowest card the seat may play; a seat it must choose, the first clockwise from it; a
    Lamp Warden's guess, the lowest rank it may name."""
    if not isinstance(state, Playing):
        return None
    name = playable(state.seats[seat].hand)[0]
    order = clockwise_from(seat, len(state.seats))
    plays = plays_of(state, seat, name)
    return min(plays, key=lambda play: 0 if play.target is None else order.index(play.target))
