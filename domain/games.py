"""Every game Hearthlog serves, registered on import."""

import domain.wick_ember  # noqa: F401  (registers Wick & Ember)
from domain.registry import GAMES

__all__ = ["GAMES"]
