"""What every controller shares: the caller's token, the service, documented error answers."""

from __future__ import annotations

from litestar import Request
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example

from service import auth
from service.api.schemas import ErrorBody
from service.errors import unauthorized
from service.matches import MatchService

_MEANINGS = {
    400: "The body or a parameter is malformed",
    401: "The token is missing or not valid for this match",
    403: "The token is valid but may not do this",
    404: "No such match or game",
    409: "Version clash, not your turn, or the wrong phase of the match",
    413: "The body is larger than the documented limit",
    422: "Well-formed, but the rules do not allow it",
    503: "The database is unavailable; retry after the Retry-After header",
}


def errors(*codes: int) -> dict[int, ResponseSpec]:
    """The documented error answers of a route."""
    return {
        code: ResponseSpec(
            data_container=ErrorBody,
            description=_MEANINGS[code],
            generate_examples=False,
            examples=[Example(value={"status_code": code, "detail": _MEANINGS[code]})],
        )
        for code in codes
    }


def provide_token(request: Request) -> str | None:
    """The bearer token the caller sent, None when it sent no Authorization header."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    token = auth.bearer(header)
    if token is None:
        raise unauthorized("the Authorization header must be 'Bearer <token>'")
    return token


def provide_service(request: Request) -> MatchService:
    """The application service created at start-up."""
    return request.app.state.service
