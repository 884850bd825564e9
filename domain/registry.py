"""The games Hearthlog serves, by their id in the API."""

from domain.core.decider import Game

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the catalogue (its id must be new)."""
    if game.id in GAMES:
        raise ValueError(f"game {game.id!r} is registered twice")
    GAMES[game.id] = game
    return game
