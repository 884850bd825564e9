"""The catalogue of games."""

from __future__ import annotations

import msgspec
from litestar import Controller, get
from litestar.params import FromPath

from domain.games import GAMES, versions
from service.api.common import errors
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
    )


class GameController(Controller):
    """Which games are served, with their options, seat range and rules version."""

    path = "/games"
    tags = ["games"]

    @get("/", operation_id="listGames", summary="The games this server plays")
    async def list_games(self) -> GameList:
        """Every game in the catalogue."""
        return GameList(games=[describe(game_id) for game_id in sorted(GAMES)])

    @get("/{game:str}", operation_id="getGame", summary="One game", responses=errors(400, 404))
    async def get_game(self, game: FromPath[str]) -> GameInfo:
        """One game of the catalogue."""
        if game not in GAMES:
            raise ServiceError(404, f"no game {game!r}; the catalogue is at GET /games")
        return describe(game)
