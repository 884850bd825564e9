"""How a finished match ranks its seats (R10)."""

from __future__ import annotations

from domain.core.decider import Outcome
from domain.whiteout_road.nights import standing
from domain.whiteout_road.state import Over, State, Unopened


def outcome(state: State | Unopened) -> Outcome | None:
    """Winners, gratitude per seat and placements, once the match is over."""
    if not isinstance(state, Over):
        return None
    scores = tuple(t.gratitude for t in state.seats)
    return Outcome(winners=state.winners, scores=scores, placements=placements(state))


def placements(state: Over) -> tuple[int, ...]:
    """Winners share first place; the rest follow by gratitude, then best night (1, 2, 2, 4)."""
    return tuple(_place(state, seat) for seat in range(len(state.seats)))


def _place(state: Over, seat: int) -> int:
    """1 for a winner, else 1 + the winners + the other seats standing higher."""
    if seat in state.winners:
        return 1
    mine = standing(state.seats[seat])
    ahead = [
        other
        for other, t in enumerate(state.seats)
        if other not in state.winners and standing(t) > mine
    ]
    return 1 + len(state.winners) + len(ahead)
