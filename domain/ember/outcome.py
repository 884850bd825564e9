"""How a finished match ranks its seats."""

from __future__ import annotations

from domain.core.decider import Outcome
from domain.ember.state import Finished, State, Undealt


def outcome(state: State | Undealt) -> Outcome | None:
    """Winners, final scores and placements, once the match is over."""
    if not isinstance(state, Finished):
        return None
    keys = list(zip(state.scores, state.sums))
    placements = tuple(_place(seat, keys, state.winners) for seat in range(len(keys)))
    return Outcome(winners=state.winners, scores=state.scores, placements=placements)


def _place(seat: int, keys: list[tuple[int, int]], winners: tuple[int, ...]) -> int:
    """1 for a winner, else 1 + the winners + the other seats ahead by score, then hand."""
    if seat in winners:
        return 1
    ahead = [o for o in range(len(keys)) if o not in winners and keys[o] > keys[seat]]
    return 1 + len(winners) + len(ahead)
