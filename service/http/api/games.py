"""The catalogue of games."""

from __future__ import annotations

from litestar import Controller, get
from litestar.params import FromPath

from service import catalogue
from service.http.api.common import errors
from service.schemas import GameInfo, GameList


class GameController(Controller):
    """Which games are served: seats, rules versions, schemas of options, commands and views."""

    path = "/games"
    tags = ["games"]

    @get("/", operation_id="listGames", summary="The games this server plays")
    async def list_games(self) -> GameList:
        """Every game in the catalogue."""
        return catalogue.games()

    @get("/{game:str}", operation_id="getGame", summary="One game", responses=errors(400, 404))
    async def get_game(self, game: FromPath[str]) -> GameInfo:
        """One game of the catalogue, with the JSON Schemas of its commands and view."""
        return catalogue.game(game)
