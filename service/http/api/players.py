"""Players: make one, who am I, a player's page, its matches and tournaments (paged), and the
export of its finished matches. Each route decodes, calls one service function and answers;
docs/api.md, "Players", walks through them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated

from litestar import Controller, get, post
from litestar.openapi.spec import Operation
from litestar.params import FromPath, JSONBody, QueryParameter
from litestar.response import Stream

from service import schemas
from service.exports import chunked, guarded
from service.http.api.common import BODY_ERRORS, TOKEN, AnyRequest, errors, provide_token, strictly
from service.http.api.shaping import lines_media
from service.http.api.tournaments import NDJSON, text_answer
from service.http.bootstrap import services
from service.players import PlayerService
from service.reads import RoutedExports

Id = FromPath[str]
Limit = Annotated[int, QueryParameter(ge=1, le=200)]
Offset = Annotated[int, QueryParameter(ge=0, le=1_000_000_000)]


@dataclass
class PlayerExportAnswer(Operation):
    """A player's finished matches: NDJSON text."""

    def __post_init__(self) -> None:
        """The 200 answer's one media type."""
        text_answer(self, NDJSON, "One export document a line (the MatchExport schema, as GET "
                    "/exports/matches writes them), for each finished match the player took a "
                    "seat in, oldest first: `hearthlog verify` checks the file offline",
                    keep_json=False)


def players_of(request: AnyRequest) -> PlayerService:
    """The player use cases (service.http.bootstrap made them at start-up)."""
    return services(request.app).players


class PlayerController(Controller):
    """Every route under /players."""

    path = "/players"
    tags = ["players"]

    @post("/", operation_id="createPlayer", summary="Make a player",
          responses=errors(400, 409, *BODY_ERRORS))
    async def create(
        self, request: AnyRequest, data: JSONBody[schemas.NewPlayer]
    ) -> schemas.PlayerCreated:
        """Make a player with a name no other player's looks like; the answer's token (shown
        once) takes seats and registers in tournaments as this player. With a client app's
        X-Api-Key, the player is that app's (one of its users)."""
        body, made = await strictly(request, data), services(request.app)
        app = await made.apps.authenticate(request.headers.get("x-api-key"))
        return await made.players.create(body.name, app.app_id if app else None)

    @get("/me", operation_id="getMe", summary="The player your token is",
         responses=errors(400, 401), security=TOKEN)
    async def me(self, request: AnyRequest) -> schemas.PlayerProfile:
        """The player whose token the request carries."""
        players = players_of(request)
        player = await players.authenticate(provide_token(request))
        return await players.profile(player.player_id)

    @get("/{player_id:str}", operation_id="getPlayer", summary="A player",
         responses=errors(400, 404))
    async def get_player(self, request: AnyRequest, player_id: Id) -> schemas.PlayerProfile:
        """A player's name and when it was made."""
        return await players_of(request).profile(player_id)

    @get("/{player_id:str}/matches", operation_id="listPlayerMatches",
         summary="A player's matches, newest first", responses=errors(400, 404))
    async def matches(
        self, request: AnyRequest, player_id: Id, limit: Limit = 50, offset: Offset = 0
    ) -> schemas.PlayerMatchPage:
        """Each match the player took a seat in: its game, status, the seat, and its place."""
        return await players_of(request).matches(player_id, limit, offset)

    @get("/{player_id:str}/tournaments", operation_id="listPlayerTournaments",
         summary="A player's tournaments, newest first", responses=errors(400, 404))
    async def tournaments(
        self, request: AnyRequest, player_id: Id, limit: Limit = 50, offset: Offset = 0
    ) -> schemas.PlayerTournamentPage:
        """Each tournament the player registered in, with its entrant number and name there."""
        return await players_of(request).tournaments(player_id, limit, offset)

    @get("/{player_id:str}/export", operation_id="exportPlayerMatches",
         summary="A player's finished matches as NDJSON", responses=errors(400, 404),
         operation_class=PlayerExportAnswer)
    async def export(self, request: AnyRequest, player_id: Id) -> Stream:
        """Every finished match the player took a seat in, oldest first, one verifiable export
        document a line."""
        made = services(request.app)
        finished = await made.players.finished(player_id)
        lines = guarded(exported(made.exports, finished), f"player {player_id}'s export")
        return Stream(chunked(lines), media_type=lines_media(request.headers.get("accept")),
                      headers={"X-Match-Count": str(len(finished))})


async def exported(exports: RoutedExports, match_ids: list[str]) -> AsyncIterator[bytes]:
    """Each match's export document as one NDJSON line."""
    for match_id in match_ids:
        yield await exports.export(match_id) + b"\n"
