"""Every game Hearthlog serves, registered on import."""

from domain import whiteout_road, wick_ember  # noqa: F401  (importing a game registers it)
from domain.registry import GAMES, RULEBOOKS, UnknownRules, latest, lookup, rulebooks, versions

__all__ = ["GAMES", "RULEBOOKS", "UnknownRules", "latest", "lookup", "rulebooks", "versions"]
