"""How a finished match ranks its seats (D10)."""

from __future__ import annotations

from domain.core.decider import Outcome
from domain.deathwick.state import Over


def outcome(state: object) -> Outcome | None:
    """Winners; a seat's score is how many seats fell before it (the winners: all who fell)."""
    if not isinstance(state, Over):
        return None
    scores = tuple(state.fallen if seat in state.winners else player.before
                   for seat, player in enumerate(state.players))
    placements = tuple(1 if seat in state.winners else 1 + sum(s > scores[seat] for s in scores)
                       for seat in range(len(scores)))
    return Outcome(winners=state.winners, scores=scores, placements=placements)
