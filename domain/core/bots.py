"""Server-side bots: pure choices among a seat's legal actions, made from what that seat may see.

A bot is a function ``choose(view, actions, stream) -> action``: ``view`` is the game's observer
output for the bot's seat (a bot knows no more than a person in that seat would), ``actions`` the
seat's legal actions (never empty) and ``stream`` a seeded stream keyed by the match version and
the seat, so a bot's choice is reproducible from the match seed. Every game has the ``random`` bot;
a game adds its own through its Rulebook's ``bots`` (``{name: choose}``).
"""

from __future__ import annotations

from typing import Any, TypeVar

from domain.core.decider import Choose, Game, Rulebook
from domain.core.rng import Rng, Stream

RANDOM = "random"
S = TypeVar("S")  # the game's state
V = TypeVar("V")  # its view
A = TypeVar("A")  # its legal actions


def random_bot(view: object, actions: list[A], stream: Stream) -> A:
    """Any legal action, each equally likely."""
    return stream.choice(actions)


def bots_of(game: Rulebook[Any, Any, Any, V, A]) -> dict[str, Choose[V, A]]:
    """The bots a game can seat: ``random``, then the game's own (its Rulebook's ``bots``)."""
    return {RANDOM: random_bot, **game.bots}


def bot_names(game: Game) -> tuple[str, ...]:
    """The names a host may ask for when seating a bot in this game."""
    return tuple(bots_of(game))


def bot_stream(rng: Rng, version: int, seat: int) -> Stream:
    """The stream a bot draws from when acting for ``seat`` at match ``version``."""
    return rng.stream("bot", version, seat)


def choose(
    game: Rulebook[S, Any, Any, Any, A], bot: str, state: S, seat: int, stream: Stream
) -> A | None:
    """The bot's action for the seat in the game state, or None when the seat has none."""
    actions = game.legal_actions(state, seat)
    if not actions:
        return None
    return bots_of(game)[bot](game.observe(state, seat), actions, stream)
