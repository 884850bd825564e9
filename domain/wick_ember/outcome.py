"""How a finished match ranks its seats."""

from __future__ import annotations

from domain.core.decider import Outcome
from domain.wick_ember.state import Finished, State, Unlit


def outcome(state: State | Unlit) -> Outcome | None:
    """Winners, embers per seat and placements, once the match is over."""
    if not isinstance(state, Finished):
        return None
    scores = tuple(lamp.embers for lamp in state.seats)
    return Outcome(
        winners=state.winners, scores=scores, placements=placements(scores, state.winners)
    )


def placements(scores: tuple[int, ...], winners: tuple[int, ...]) -> tuple[int, ...]:
    """H7: winners share first place; the rest follow by embers (competition ranking: 1,2,2,4)."""
    return tuple(_place(seat, scores, winners) for seat in range(len(scores)))


def _place(seat: int, scores: tuple[int, ...], winners: tuple[int, ...]) -> int:
    """1 for a winner, else 1 + the winners + the other seats with more embers."""
    if seat in winners:
        return 1
    ahead = [s for s in range(len(scores)) if s not in winners and scores[s] > scores[seat]]
    return 1 + len(winners) + len(ahead)
