"""Deathwick: the pure rules (docs/rules/deathwick.md), registered as 'deathwick'."""

from domain.deathwick.game import GAME
from domain.registry import register

register(GAME)

__all__ = ["GAME"]
