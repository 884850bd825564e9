"""Whiteout Road: the pure rules (docs/rules/whiteout-road.md), registered as 'whiteout-road'."""

from domain.registry import register
from domain.whiteout_road.game import GAME

register(GAME)

__all__ = ["GAME"]
