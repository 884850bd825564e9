"""Wick & Ember: the pure rules (docs/rules/wick-and-ember.md), registered as 'wick-and-ember'."""

from domain.registry import register
from domain.wick_ember.game import GAME

register(GAME)

__all__ = ["GAME"]
