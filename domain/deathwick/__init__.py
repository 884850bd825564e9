"""Deathwick: the pure rules (docs/rules/deathwick.md), registered as 'deathwick' under rules
versions 1 and 2 (versions.py); a new match gets version 2."""

from domain.deathwick.game import GAME, GAME_V1, GAME_V2, VERSIONS
from domain.registry import register

for _rulebook in VERSIONS:
    register(_rulebook)

__all__ = ["GAME", "GAME_V1", "GAME_V2", "VERSIONS"]
