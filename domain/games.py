"""Every game Hearthlog serves, registered on import.

``BUILT_IN`` are the ids of the games this release is built with (the committed OpenAPI
document describes these); a server may carry more, registered by the modules named in
HEARTHLOG_EXTRA_GAMES (service/cli/extra_games.py), and the test suite registers its test game.
"""

from domain import deathwick, ember, whiteout_road, wick_ember
from domain.registry import GAMES, RULEBOOKS, UnknownRules, latest, lookup, rulebooks, versions

BUILT_IN: tuple[str, ...] = tuple(sorted({deathwick.GAME.id, ember.GAME.id, whiteout_road.GAME.id,
                                           wick_ember.GAME.id}))

__all__ = ["BUILT_IN", "GAMES", "RULEBOOKS", "UnknownRules", "latest", "lookup", "rulebooks",
           "versions"]
