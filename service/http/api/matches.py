"""Matches: create, list, seats, start, views, legal actions, commands, concede, log."""

from __future__ import annotations

from typing import Annotated, Literal

from litestar import Controller, Response, get, post
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter

from service import schemas
from service.http.api.common import (
    BODY_ERRORS,
    OPTIONAL_TOKEN,
    TOKEN,
    AnyRequest,
    TextQuery,
    caller,
    errors,
    provide_token,
    service_of,
    strictly,
)
from service.http.bootstrap import services
from service.matches import MatchService

Status = Literal["lobby", "playing", "finished"]


class MatchController(Controller):
    """Every route under /matches; each decodes, calls one service function, answers.

    The service and the token are taken from the request by plain calls, not litestar
    dependencies: two dependencies are resolved in an anyio task group of two tasks on every
    request, about a tenth of the server's CPU on the command path (docs/benchmarks.md).
    """

    path = "/matches"
    tags = ["matches"]

    @post("/", operation_id="createMatch", summary="Open a match",
          responses=errors(400, 422, *BODY_ERRORS))
    async def create(
        self, request: AnyRequest, data: JSONBody[schemas.CreateMatch]
    ) -> schemas.MatchCreatedAnswer:
        """Open a match of a game; the answer's host token starts it. A tournament tag may not
        name a tournament run here (its tables are made by its rounds)."""
        body, made = await strictly(request, data), services(request.app)
        if body.tournament is not None:
            await made.tournaments.refuse_tag(body.tournament)
        return await made.matches.create(body)

    @get("/", operation_id="listMatches", summary="List matches, newest first",
         responses=errors(400))
    async def list_matches(
        self,
        request: AnyRequest,
        game: TextQuery = None,
        status: FromQuery[Status | None] = None,
        tournament: TextQuery = None,
        limit: Annotated[int, QueryParameter(ge=1, le=200)] = 50,
        offset: Annotated[int, QueryParameter(ge=0, le=1_000_000_000)] = 0,
    ) -> schemas.MatchPage:
        """A page of matches, filtered by game, status and tournament."""
        return await service_of(request).list(
            game=game, status=status, tournament=tournament, limit=limit, offset=offset
        )

    @get("/{match_id:str}", operation_id="getMatch", summary="A match's summary",
         responses=errors(400, 404))
    async def get_match(self, request: AnyRequest, match_id: FromPath[str]) -> schemas.MatchSummary:
        """The summary: players, status, version, seed commitment; seeds once finished."""
        return await service_of(request).summary(match_id)

    @post("/{match_id:str}/seats", operation_id="joinMatch", summary="Take a seat",
          responses=errors(400, 401, 403, 404, 409, 410, 422, *BODY_ERRORS),
          security=OPTIONAL_TOKEN)
    async def join(
        self, request: AnyRequest, match_id: FromPath[str], data: JSONBody[schemas.JoinSeat]
    ) -> schemas.SeatAnswer:
        """Take the next free seat (numbered from 0 clockwise, in joining order); with a
        player's token, as that player (its token then acts for the seat too)."""
        body, token = await strictly(request, data), provide_token(request)
        made = services(request.app)
        player = None if token is None else await made.players.authenticate(token)
        return await made.matches.join(match_id, body, player)

    @post("/{match_id:str}/start", operation_id="startMatch", summary="Start play (host)",
          status_code=200, responses=errors(400, 401, 403, 404, 409, 410), security=TOKEN)
    async def start(self, request: AnyRequest, match_id: FromPath[str]) -> schemas.MatchSummary:
        """The host starts the match once every seat is taken."""
        matches, token = caller(request)
        return await matches.start(match_id, token)

    @get("/{match_id:str}/view", operation_id="getView", summary="Your view of the match",
         responses=errors(400, 401, 404), security=OPTIONAL_TOKEN)
    async def view(self, request: AnyRequest, match_id: FromPath[str]) -> schemas.MatchView:
        """A seat's view with its token; without a token, the spectator's."""
        matches, token = caller(request)
        return await matches.view(match_id, token)

    @get("/{match_id:str}/legal-actions", operation_id="getLegalActions",
         summary="What your seat may do now", responses=errors(400, 401, 403, 404), security=TOKEN)
    async def legal_actions(
        self, request: AnyRequest, match_id: FromPath[str]
    ) -> schemas.LegalActions:
        """Complete commands, each ready to send unchanged to the commands route."""
        matches, token = caller(request)
        return await matches.legal_actions(match_id, token)

    @post("/{match_id:str}/commands", operation_id="sendCommand", summary="Play a command",
          status_code=200, responses=errors(400, 401, 403, 404, 409, 422, *BODY_ERRORS),
          security=TOKEN)
    async def command(
        self, request: AnyRequest, match_id: FromPath[str], data: JSONBody[schemas.SendCommand]
    ) -> Response[schemas.CommandAnswer]:
        """Play for your seat; the same command_id again gives the first answer."""
        matches: MatchService = service_of(request)
        body_sent = await strictly(request, data)
        status, body = await matches.command(match_id, provide_token(request), body_sent)
        # The body is the CommandAnswer already encoded (the first answer, kept for a repeated
        # command_id); the route's annotation names CommandAnswer for the OpenAPI document.
        return Response(content=body, status_code=status,  # type: ignore[arg-type]
                        media_type="application/json")

    @post("/{match_id:str}/concede", operation_id="concede", summary="Concede the match",
          status_code=200, responses=errors(400, 401, 403, 404, 409), security=TOKEN)
    async def concede(self, request: AnyRequest, match_id: FromPath[str]) -> schemas.CommandAnswer:
        """Your seat gives up: its flame is snuffed and it takes no further part."""
        matches, token = caller(request)
        return await matches.concede(match_id, token)

    @get("/{match_id:str}/log", operation_id="getLog", summary="The match log",
         responses=errors(400, 401, 404), security=OPTIONAL_TOKEN)
    async def log(
        self, request: AnyRequest, match_id: FromPath[str],
        after: Annotated[int, QueryParameter(ge=0)] = 0,
    ) -> schemas.LogPage:
        """Public lines after a version, plus your private lines with your seat token."""
        matches, token = caller(request)
        return await matches.log(match_id, token, after)
