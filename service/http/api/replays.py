"""Replays and verification reports of a match."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath

from projections.replay import Replay
from projections.verify import Report
from service import schemas
from service.http.api.common import OPTIONAL_TOKEN, errors, optional_at_least, provide_token
from service.http.api.exports import provide_exports
from service.reads import RoutedExports

Exports = NamedDependency[RoutedExports]
Token = NamedDependency[str | None]


class ReplayController(Controller):
    """GET /matches/{id}/replay, /replay/{version} and /verification."""

    path = "/matches"
    tags = ["replays"]
    dependencies = {
        "exports": Provide(provide_exports, sync_to_thread=False),
        "token": Provide(provide_token, sync_to_thread=False),
    }

    @get(
        "/{match_id:str}/replay",
        operation_id="getReplay",
        summary="A finished match event by event, nothing hidden",
        responses=errors(400, 404, 409),
    )
    async def replay(self, exports: Exports, match_id: FromPath[str]) -> Replay:
        """Every event with its number, time and seat, and the whole state after it."""
        return await exports.replay(match_id)

    @get(
        "/{match_id:str}/replay/{version:int}",
        operation_id="getPastView",
        summary="The match at a version, as a seat or a spectator saw it",
        responses=errors(400, 401, 403, 404, 409),
        security=OPTIONAL_TOKEN,
    )
    async def past_view(
        self,
        exports: Exports,
        token: Token,
        match_id: FromPath[str],
        version: FromPath[int],
        seat: Annotated[int | None, optional_at_least(0)] = None,
    ) -> schemas.MatchView:
        """Without seat, the spectator's view; with it, that seat's (its own token while the
        match runs, open to all once it is over)."""
        return await exports.past_view(match_id, version, seat, token)

    @get(
        "/{match_id:str}/verification",
        operation_id="verifyMatch",
        summary="The server's own verification of a match",
        responses=errors(400, 404),
    )
    async def verification(self, exports: Exports, match_id: FromPath[str]) -> Report:
        """Finished: every check of `hearthlog verify`. Running: the hash chain only, no hash
        shown, since the seed is not yet published."""
        return await exports.verification(match_id)
