"""The catalogue of games: each game's latest rules, with the JSON Schemas a client needs."""

from __future__ import annotations

import msgspec

from domain.core.bots import bot_names
from domain.games import GAMES, versions
from service.errors import ServiceError
from service.schemas import GameInfo, GameList


def describe(game_id: str) -> GameInfo:
    """A game, with the JSON Schemas of its options, commands and view (latest rules)."""
    game = GAMES[game_id]
    return GameInfo(
        id=game.id,
        title=game.title,
        rules_version=game.rules_version,
        rules_versions=versions(game.id),
        min_seats=game.min_seats,
        max_seats=game.max_seats,
        options=msgspec.json.schema(game.Options),
        commands=msgspec.json.schema(game.Command),
        view=msgspec.json.schema(game.View),
        bots=sorted(bot_names(game)),
        cards=list(game.cards),
    )


def games() -> GameList:
    """Every game in the catalogue, by id."""
    return GameList(games=[describe(game_id) for game_id in sorted(GAMES)])


def game(game_id: str) -> GameInfo:
    """One game of the catalogue; 404 naming where the catalogue is."""
    if game_id not in GAMES:
        raise ServiceError(404, f"no game {game_id!r}; the catalogue is at GET /games")
    return describe(game_id)
