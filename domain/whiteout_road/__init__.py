"""Whiteout Road: the pure rules (docs/rules/whiteout-road.md), registered as 'whiteout-road'
under rules versions 1 and 2 (versions.py); a new match gets version 2."""

from domain.registry import register
from domain.whiteout_road.game import GAME, GAME_V1, GAME_V2, VERSIONS

for _rulebook in VERSIONS:
    register(_rulebook)

__all__ = ["GAME", "GAME_V1", "GAME_V2", "VERSIONS"]
