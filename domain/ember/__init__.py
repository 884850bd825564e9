"""Ember: the pure rules (docs/rules/ember.md), registered as 'ember'."""

from domain.ember.game import GAME, VERSIONS
from domain.registry import register

for book in VERSIONS:
    register(book)

__all__ = ["GAME", "VERSIONS"]
