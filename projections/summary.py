"""The match summary the service stores beside the events and shows in match listings."""

from __future__ import annotations

import msgspec

from domain.core import match
from domain.core.decider import Game, Outcome


class Summary(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The inline read model of one match, kept in its row (JSON) and decoded once, by the store.

    In play: the names, which seats are bots, the turn clock and whether a bot is to act (the
    server's sweep reads the last two in SQL). Once over: the names, the bots, the result and the
    seeds, which appear nowhere before the outcome is known. A field at its default is left out
    of the stored JSON, so a row written before a field existed reads back the same.
    """

    names: tuple[str, ...] = ()
    bots: tuple[str | None, ...] = ()
    turn_seconds: int | None = None
    bot_to_act: bool = False
    result: Outcome | None = None
    server_seed: str | None = None  # hex, published once the match is over
    client_seeds: tuple[str | None, ...] | None = None  # likewise
    players: tuple[str | None, ...] = ()  # each seat's player id, when any seat is a player's
    rated: bool = False


def summary(game: Game, state: match.MatchState, server_seed: bytes) -> Summary:
    """The summary of a match in ``state``; its seeds only once the outcome is known."""
    result = match.outcome(game, state)
    players = state.players if any(state.players) else ()
    rated = match.rated(state)
    if result is None:
        waiting = game.to_act(state.game) if isinstance(state, match.Table) else ()
        return Summary(names=state.names, bots=state.bots, turn_seconds=match.turn_seconds(state),
                       bot_to_act=any(match.bot_of(state, seat) for seat in waiting),
                       players=players, rated=rated)
    return Summary(names=state.names, bots=state.bots, result=result,
                   server_seed=server_seed.hex(), client_seeds=state.client_seeds,
                   players=players, rated=rated)
