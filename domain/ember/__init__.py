"""Ember: the pure rules (docs/rules/ember.md), registered as 'ember'."""

from domain.ember.game import GAME, GAME_V1, GAME_V2, VERSIONS
from domain.registry import register

for book in VERSIONS:
    register(book)

__all__ = ["GAME", "GAME_V1", "GAME_V2", "VERSIONS"]
