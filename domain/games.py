"""Every game Hearthlog serves, registered on import."""

from domain import whiteout_road, wick_ember  # noqa: F401  (importing a game registers it)
from domain.registry import GAMES

__all__ = ["GAMES"]
