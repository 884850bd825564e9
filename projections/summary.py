"""The match summary the service stores beside the events and shows in match listings."""

from __future__ import annotations

from typing import Any

from domain.core import match
from domain.core.decider import Game


def summary(game: Game, state: match.MatchState, server_seed: bytes) -> dict[str, Any]:
    """The inline read model: players, and once the match is over its result and its seeds.

    The seeds are published only when the outcome is known; until then they appear nowhere.
    """
    result = match.outcome(game, state)
    if result is None:
        return {"names": list(state.names), **_autoplay(game, state), "result": None}
    return {
        "names": list(state.names),
        "bots": list(state.bots),
        "result": {
            "winners": list(result.winners),
            "scores": list(result.scores),
            "placements": list(result.placements),
        },
        "server_seed": server_seed.hex(),
        "client_seeds": list(state.client_seeds),
    }


def _autoplay(game: Game, state: match.MatchState) -> dict[str, Any]:
    """Which seats are bots, the turn clock, and whether a bot is to act (the server's sweep)."""
    waiting = game.to_act(state.game) if isinstance(state, match.Table) else ()
    return {
        "bots": list(state.bots),
        "turn_seconds": match.turn_seconds(state),
        "bot_to_act": any(match.bot_of(state, seat) for seat in waiting),
    }
