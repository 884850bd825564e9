"""Tournaments: create, list, read, register, close, rounds, my table, withdraw, forfeit,
the organizer's actions (remove, approve, void, finish, cancel), standings (JSON or CSV), and
the verifiable bundle. Each route decodes, calls one service
function and answers; docs/api.md walks through them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from litestar import Controller, Response, delete, get, post
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, OpenAPIType, Operation, Schema
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter
from litestar.response import Stream

from service import auth
from service.http.api.common import (
    BODY_ERRORS,
    OPTIONAL_TOKEN,
    TOKEN,
    AnyRequest,
    errors,
    provide_token,
    strictly,
)
from service.http.api.shaping import lines_media
from service.http.api.tournament_limits import LIMITS
from service.http.bootstrap import services
from service.tournament import schemas as ts
from service.tournament.actions import OrganizerActions
from service.tournament.bundle import bundle_lines
from service.tournament.rounds import Rounds
from service.tournament.tournaments import TournamentService

Id = FromPath[str]
CSV = "text/csv"
NDJSON = "application/x-ndjson"
TEXT = "text/plain"


def text_answer(operation: Operation, media: str, description: str, keep_json: bool) -> None:
    """Document a route's 200 answer as text of ``media`` too (or only: ``keep_json`` False)."""
    ok = operation.responses["200"] if operation.responses else None
    if isinstance(ok, OpenAPIResponse):
        text = OpenAPIMediaType(schema=Schema(type=OpenAPIType.STRING, content_media_type=media))
        ok.content = {**(ok.content or {}), media: text} if keep_json else {media: text}
        ok.description = description


@dataclass
class StandingsAnswer(Operation):
    """The standings as JSON, or as CSV."""

    def __post_init__(self) -> None:
        """Both media types of the 200 answer."""
        text_answer(self, CSV, "The standings as JSON, or with ?format=csv or Accept: text/csv "
                    "as CSV: a header line, then one row per entrant", keep_json=True)


@dataclass
class CrosstableAnswer(Operation):
    """The crosstable as JSON, or as CSV."""

    def __post_init__(self) -> None:
        """Both media types of the 200 answer."""
        text_answer(self, CSV, "The crosstable as JSON, or with ?format=csv or Accept: text/csv "
                    "as CSV: rank, entrant, name, points, then a cell a round", keep_json=True)


@dataclass
class BundleAnswer(Operation):
    """The bundle: NDJSON text."""

    def __post_init__(self) -> None:
        """The 200 answer's one media type."""
        text_answer(self, NDJSON, "One JSON line each: the header (kind tournament), every "
                    "round (kind round) followed by its matches (kind match, each carrying the "
                    "match's export), and the standings (kind standings) last: "
                    "docs/tournament-bundle.schema.json", keep_json=False)


def tournaments_of(request: AnyRequest) -> TournamentService:
    """The tournament use cases (service.http.bootstrap made them at start-up)."""
    return services(request.app).tournaments


def actions_of(request: AnyRequest) -> OrganizerActions:
    """The organizer's actions, over the tournament use cases."""
    return OrganizerActions(tournaments_of(request))


def rounds_of(request: AnyRequest) -> Rounds:
    """The round use cases (service.http.bootstrap made them at start-up)."""
    return services(request.app).rounds


class TournamentController(Controller):
    """Every route under /tournaments."""

    path = "/tournaments"
    tags = ["tournaments"]

    @post("/", operation_id="createTournament", summary="Open a tournament",
          responses=errors(400, 404, 422, *BODY_ERRORS))
    async def create(self, request: AnyRequest, data: JSONBody[ts.CreateTournament]
                     ) -> ts.TournamentCreated:
        """Open a tournament; the answer's organizer token (shown once) runs it."""
        body = await strictly(request, data)
        client = LIMITS.tournaments.check(request, "tournaments created")
        made = await tournaments_of(request).create(body)
        LIMITS.tournaments.add(client)
        return made

    @get("/", operation_id="listTournaments", summary="List tournaments, newest first",
         responses=errors(400))
    async def list_tournaments(
        self, request: AnyRequest,
        limit: Annotated[int, QueryParameter(ge=1, le=200)] = 50,
        offset: Annotated[int, QueryParameter(ge=0, le=1_000_000_000)] = 0,
    ) -> ts.TournamentPage:
        """A page of tournaments."""
        return await tournaments_of(request).list(limit, offset)

    @get("/{tournament_id:str}", operation_id="getTournament", summary="A tournament",
         responses=errors(400, 404))
    async def get_tournament(self, request: AnyRequest, tournament_id: Id) -> ts.TournamentInfo:
        """Settings, status, entrants, rounds with their tables; the seed once finished."""
        return await tournaments_of(request).get(tournament_id)

    @post("/{tournament_id:str}/players", operation_id="registerPlayer",
          summary="Register a player or a bot",
          responses=errors(400, 401, 404, 409, 422, *BODY_ERRORS), security=OPTIONAL_TOKEN)
    async def register(self, request: AnyRequest, tournament_id: Id,
                       data: JSONBody[ts.Register]) -> ts.Registered:
        """A person gets a player token (shown once); a bot entrant gets none; with a player's
        token, that player enters and its own token is the entrant's."""
        body, token = await strictly(request, data), provide_token(request)
        player = None if token is None else (
            await services(request.app).players.authenticate(token), auth.token_hash(token))
        client = LIMITS.entrants.check(request, "entrants registered")
        registered = await tournaments_of(request).register(tournament_id, body, player)
        LIMITS.entrants.add(client)
        return registered

    @post("/{tournament_id:str}/close", operation_id="closeRegistration", status_code=200,
          summary="Close registration (organizer)", responses=errors(400, 401, 403, 404, 409),
          security=TOKEN)
    async def close(self, request: AnyRequest, tournament_id: Id) -> ts.TournamentInfo:
        """The entrants are fixed; rounds may start."""
        return await tournaments_of(request).close(tournament_id, provide_token(request))

    @post("/{tournament_id:str}/rounds", operation_id="startRound",
          summary="Start the next round (organizer)", responses=errors(400, 401, 403, 404, 409),
          security=TOKEN)
    async def start_round(self, request: AnyRequest, tournament_id: Id) -> ts.RoundInfo:
        """Pair the next round and open, seat and start one match per table."""
        client = LIMITS.tables.check(request, "tournament tables opened")
        started = await rounds_of(request).start_next(tournament_id, provide_token(request))
        LIMITS.tables.add(client, len(started.tables))
        return started

    @post("/{tournament_id:str}/rounds/by-hand", operation_id="startRoundByHand",
          summary="Start the next Swiss round paired by hand (organizer)",
          responses=errors(400, 401, 403, 404, 409, 422, *BODY_ERRORS), security=TOKEN)
    async def start_round_by_hand(self, request: AnyRequest, tournament_id: Id,
                                  data: JSONBody[ts.ByHand]) -> ts.RoundInfo:
        """The organizer's pairing with its reason, recorded in the bundle; checked as a round
        (everyone still in once), not re-derived."""
        body = await strictly(request, data)
        client = LIMITS.tables.check(request, "tournament tables opened")
        started = await rounds_of(request).start_next(tournament_id, provide_token(request),
                                                      body)
        LIMITS.tables.add(client, len(started.tables))
        return started

    @get("/{tournament_id:str}/rounds/{round:int}", operation_id="getRound",
         summary="One round's tables", responses=errors(400, 404))
    async def get_round(self, request: AnyRequest, tournament_id: Id,
                        round: FromPath[int]) -> ts.RoundInfo:
        """A started round: its tables, their matches, statuses and results, and its byes."""
        return await tournaments_of(request).round(tournament_id, round)

    @get("/{tournament_id:str}/me", operation_id="getMyTable", summary="Your table now",
         responses=errors(400, 401, 403, 404), security=TOKEN)
    async def me(self, request: AnyRequest, tournament_id: Id) -> ts.MyTable:
        """With a player token: its current table, match and seat (the token is its seat's)."""
        return await tournaments_of(request).me(tournament_id, provide_token(request))

    @delete("/{tournament_id:str}/players/me", operation_id="withdraw", status_code=200,
            summary="Withdraw", responses=errors(400, 401, 403, 404, 409), security=TOKEN)
    async def withdraw(self, request: AnyRequest, tournament_id: Id) -> ts.EntrantInfo:
        """Leave the tournament; your match this round is conceded (as soon as it starts)."""
        return await tournaments_of(request).withdraw(tournament_id, provide_token(request))

    @post("/{tournament_id:str}/tables/{round:int}/{table:int}/forfeit",
          operation_id="forfeitTable", status_code=200, summary="Forfeit for a no-show "
          "(organizer)", responses=errors(400, 401, 403, 404, 409, 422, *BODY_ERRORS),
          security=TOKEN)
    async def forfeit(self, request: AnyRequest, tournament_id: Id, round: FromPath[int],
                      table: FromPath[int], data: JSONBody[ts.Forfeit]) -> ts.TableInfo:
        """Concede the table's match for one of its entrants, through the match's Concede."""
        body = await strictly(request, data)
        return await tournaments_of(request).forfeit(tournament_id, round, table,
                                                     provide_token(request), body)

    @post("/{tournament_id:str}/players/{number:int}/remove", operation_id="removeEntrant",
          status_code=200, summary="Remove or withdraw an entrant, a bot too (organizer)",
          responses=errors(400, 401, 403, 404, 409, *BODY_ERRORS), security=TOKEN)
    async def remove(self, request: AnyRequest, tournament_id: Id, number: FromPath[int],
                     data: JSONBody[ts.Reason]) -> ts.EntrantInfo:
        """Before round 1 the entrant is removed; after, withdrawn (its match conceded)."""
        body = await strictly(request, data)
        return await actions_of(request).remove(tournament_id, number, provide_token(request),
                                                body)

    @post("/{tournament_id:str}/players/me/bye", operation_id="requestBye", status_code=200,
          summary="Ask for a bye in a later round (player)",
          responses=errors(400, 401, 403, 404, 409, *BODY_ERRORS), security=TOKEN)
    async def request_bye(self, request: AnyRequest, tournament_id: Id,
                          data: JSONBody[ts.ByeRequest]) -> ts.TournamentInfo:
        """Not paired in that round; a half-point bye (a draw's points), recorded."""
        body = await strictly(request, data)
        return await actions_of(request).bye(tournament_id, None, provide_token(request), body)

    @post("/{tournament_id:str}/players/{number:int}/bye", operation_id="grantBye",
          status_code=200, summary="Give an entrant a requested bye (organizer)",
          responses=errors(400, 401, 403, 404, 409, *BODY_ERRORS), security=TOKEN)
    async def grant_bye(self, request: AnyRequest, tournament_id: Id, number: FromPath[int],
                        data: JSONBody[ts.ByeRequest]) -> ts.TournamentInfo:
        """As the player's own request, made by the organizer for it."""
        body = await strictly(request, data)
        return await actions_of(request).bye(tournament_id, number, provide_token(request),
                                             body)

    @post("/{tournament_id:str}/players/{number:int}/approve", operation_id="approveEntrant",
          status_code=200, summary="Approve a waiting entrant (organizer)",
          responses=errors(400, 401, 403, 404, 409), security=TOKEN)
    async def approve(self, request: AnyRequest, tournament_id: Id,
                      number: FromPath[int]) -> ts.EntrantInfo:
        """With settings.approval, an entrant plays only once approved."""
        return await actions_of(request).approve(tournament_id, number, provide_token(request))

    @post("/{tournament_id:str}/tables/{round:int}/{table:int}/void", operation_id="voidTable",
          status_code=200, summary="Declare void a table that cannot start (organizer)",
          responses=errors(400, 401, 403, 404, 409, *BODY_ERRORS), security=TOKEN)
    async def void(self, request: AnyRequest, tournament_id: Id, round: FromPath[int],
                   table: FromPath[int], data: JSONBody[ts.Reason]) -> ts.RoundInfo:
        """No match, no result, nobody at the table scores; recorded in the bundle."""
        body = await strictly(request, data)
        return await actions_of(request).void(tournament_id, round, table,
                                              provide_token(request), body)

    @post("/{tournament_id:str}/finish", operation_id="finishTournament", status_code=200,
          summary="End after the last whole round (organizer)",
          responses=errors(400, 401, 403, 404, 409, *BODY_ERRORS), security=TOKEN)
    async def finish(self, request: AnyRequest, tournament_id: Id,
                     data: JSONBody[ts.Reason]) -> ts.TournamentInfo:
        """Standings and bundle as they stand; the bundle records the early end."""
        body = await strictly(request, data)
        return await actions_of(request).finish(tournament_id, provide_token(request), body)

    @post("/{tournament_id:str}/cancel", operation_id="cancelTournament", status_code=200,
          summary="Cancel the tournament (organizer)",
          responses=errors(400, 401, 403, 404, 409), security=TOKEN)
    async def cancel(self, request: AnyRequest, tournament_id: Id) -> ts.TournamentInfo:
        """No more rounds, no standings, no bundle; tables in play end as ordinary matches."""
        return await actions_of(request).cancel(tournament_id, provide_token(request))

    @get("/{tournament_id:str}/standings", operation_id="getStandings",
         summary="Standings as JSON or CSV", responses=errors(400, 404),
         operation_class=StandingsAnswer)
    async def standings(
        self, request: AnyRequest, tournament_id: Id,
        format: FromQuery[Literal["json", "csv"] | None] = None,
    ) -> Response[ts.StandingsInfo]:
        """After every whole round; CSV with ?format=csv or Accept: text/csv."""
        service = tournaments_of(request)
        if wants_csv(request, format):
            return csv_answer(await service.standings_csv(tournament_id))
        return Response(content=await service.standings(tournament_id))

    @get("/{tournament_id:str}/crosstable", operation_id="getCrosstable",
         summary="The crosstable as JSON or CSV", responses=errors(400, 404),
         operation_class=CrosstableAnswer)
    async def crosstable(
        self, request: AnyRequest, tournament_id: Id,
        format: FromQuery[Literal["json", "csv"] | None] = None,
    ) -> Response[ts.CrosstableInfo]:
        """Every entrant's result in every whole round; CSV with ?format=csv or Accept."""
        service = tournaments_of(request)
        if wants_csv(request, format):
            return csv_answer(await service.crosstable_csv(tournament_id))
        return Response(content=await service.crosstable(tournament_id))

    @get("/{tournament_id:str}/trf", operation_id="getTrf", media_type=TEXT,
         summary="The TRF-16 of a 2-seat tournament", responses=errors(400, 404, 409))
    async def trf(self, request: AnyRequest, tournament_id: Id) -> str:
        """FIDE's Tournament Report File after the whole rounds (docs/tournaments.md, TRF)."""
        return await tournaments_of(request).trf(tournament_id)

    @get("/{tournament_id:str}/export", operation_id="exportTournament",
         summary="The finished tournament as one verifiable NDJSON bundle",
         responses=errors(400, 404, 409), operation_class=BundleAnswer)
    async def export(self, request: AnyRequest, tournament_id: Id) -> Stream:
        """Header (seed included), rounds, every match's export, standings; see
        docs/tournaments.md. Only once finished: the header carries the seed."""
        service = tournaments_of(request)
        lines = await bundle_lines(service, tournament_id)
        return Stream(lines, media_type=lines_media(request.headers.get("accept")))


def wants_csv(request: AnyRequest, format: str | None) -> bool:
    """CSV when ?format=csv, or when no format is named and Accept asks for text/csv."""
    return (format or ("csv" if CSV in request.headers.get("accept", "") else "json")) == "csv"


def csv_answer(text: str) -> Response[Any]:
    """CSV text under a route annotated with its JSON answer, for the OpenAPI document (the
    route's operation_class documents both)."""
    return Response(content=text, media_type=CSV)
