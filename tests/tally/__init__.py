"""Tally: a tiny test game with two rules versions, registered on import (as a server does with
HEARTHLOG_EXTRA_GAMES=tests.tally). It proves the versioned registry: matches of both versions
are stored, loaded, played on, replayed and verified each under its own rules."""

from domain.registry import register
from tests.tally.game import GAME_V1, GAME_V2

for _rulebook in (GAME_V1, GAME_V2):
    register(_rulebook)

__all__ = ["GAME_V1", "GAME_V2"]
