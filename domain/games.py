"""Every game Hearthlog serves, registered on import."""

import domain.whiteout_road  # noqa: F401  (registers Whiteout Road)
import domain.wick_ember  # noqa: F401  (registers Wick & Ember)
from domain.registry import GAMES

__all__ = ["GAMES"]
