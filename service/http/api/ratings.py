"""Ratings: a game's leaderboard, its ratings export (NDJSON) and one subject's history; each
route calls one RatingService function (docs/ratings.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from litestar import Controller, get
from litestar.openapi.spec import Operation
from litestar.params import FromPath, QueryParameter
from litestar.response import Stream

from service.http.api.common import AnyRequest, errors
from service.http.api.shaping import lines_media
from service.http.api.tournaments import NDJSON, text_answer
from service.http.bootstrap import services
from service.ratings import Leaderboard, RatingHistory, RatingService

Limit = Annotated[int, QueryParameter(ge=1, le=1000)]
Offset = Annotated[int, QueryParameter(ge=0, le=1_000_000_000)]


@dataclass
class RatingsExport(Operation):
    """The export: NDJSON text."""

    def __post_init__(self) -> None:
        """The 200 answer's one media type."""
        text_answer(self, NDJSON, "One JSON line each: the header (format hearthlog-ratings, "
                    "the model and its parameters), then every update in sequence order "
                    "(docs/ratings.md); `hearthlog verify --ratings` recomputes it",
                    keep_json=False)


def ratings_of(request: AnyRequest) -> RatingService:
    """The rating use cases."""
    return services(request.app).ratings


class RatingController(Controller):
    """GET /ratings/{game}, /ratings/{game}/export, /ratings/{game}/subjects/{subject}."""

    path = "/ratings"
    tags = ["ratings"]

    @get("/{game:str}", operation_id="getLeaderboard", summary="A game's leaderboard",
         responses=errors(400, 404))
    async def leaderboard(self, request: AnyRequest, game: FromPath[str], limit: Limit = 50,
                          offset: Offset = 0) -> Leaderboard:
        """Every rated subject's latest rating, best ordinal (mu - 3 sigma) first, paged."""
        return await ratings_of(request).leaderboard(game, limit, offset)

    @get("/{game:str}/export", operation_id="exportRatings",
         summary="A game's ratings as NDJSON anyone can recompute",
         responses=errors(400, 404), operation_class=RatingsExport)
    async def export(self, request: AnyRequest, game: FromPath[str]) -> Stream:
        """The header line, then one line per update in sequence order."""
        lines = ratings_of(request).export(game)
        return Stream(lines, media_type=lines_media(request.headers.get("accept")))

    @get("/{game:str}/subjects/{subject:str}", operation_id="getRatingHistory",
         summary="A player's or a bot's rating history in a game", responses=errors(400, 404))
    async def history(self, request: AnyRequest, game: FromPath[str],
                      subject: FromPath[str], limit: Limit = 200,
                      offset: Offset = 0) -> RatingHistory:
        """The subject's current rating and its updates, oldest first, paged (a player id, or
        bot:<bot> for a server bot)."""
        return await ratings_of(request).history(game, subject, limit, offset)
