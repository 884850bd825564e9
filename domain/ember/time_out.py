"""EH9: what the server plays for a seat whose turn clock ran out (the Rulebook's on_time_out)."""

from __future__ import annotations

from domain.ember.commands import Draw, EndTurn, Pass
from domain.ember.legal import closing, end_turns
from domain.ember.state import Playing, State, Undealt


def on_time_out(state: State | Undealt, seat: int) -> EndTurn | Pass | Draw | None:
    """In the last round, a pass; on a turn, end it without the Call, discarding the first
    cards in card order down to hand size."""
    if not isinstance(state, Playing) or seat != (state.call.seat if closing(state)
                                                   and state.call else state.turn):
        return None
    if closing(state):
        return Pass()
    return next(end for end in end_turns(state, seat) if not end.call)
