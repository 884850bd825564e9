"""What every controller shares: the caller's token, the service, documented error answers."""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias, TypeVar

import msgspec
from litestar import Request
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example, Schema, SecurityRequirement
from litestar.openapi.spec.enums import OpenAPIType
from litestar.params import QueryParameter

from service import auth
from service.errors import ServiceError, unauthorized
from service.http.bootstrap import services
from service.matches import MatchService
from service.schemas import NO_NUL, ErrorBody

BodyType = TypeVar("BodyType", bound=msgspec.Struct)

_MEANINGS = {
    400: "The body, a parameter or a header is malformed",
    401: "The token is missing or not valid for this match",
    403: "The token is valid but may not do this, or a private table's invite is missing or "
         "wrong",
    404: "No such match or game",
    409: "Version clash, not your turn, or the wrong phase of the match",
    410: "The lobby expired before it was started",
    413: "The body is larger than the documented limit",
    408: "The body was not received in time",
    415: "The body is not JSON (its Content-Type must be application/json)",
    422: "Well-formed, but the rules do not allow it",
    429: "Too many requests from your address (or your app, by its X-Api-Key); retry after "
         "the Retry-After header",
    503: "The database is unavailable or the server is at a limit; retry after the Retry-After "
         "header",
}

AnyRequest: TypeAlias = Request[Any, Any, Any]  # litestar's, as every route takes it


# A text filter: Postgres text cannot hold a NUL, so one is refused with a 400 naming the filter.
TextQuery = Annotated[str | None, QueryParameter(pattern=NO_NUL, max_length=100)]



def optional_at_least(minimum: int) -> QueryParameter:
    """An optional whole-number query parameter of at least ``minimum``, checked by litestar and
    said in the document (litestar drops the minimum of an optional parameter from it)."""
    nullable = [Schema(type=OpenAPIType.INTEGER, minimum=minimum), Schema(type=OpenAPIType.NULL)]
    return QueryParameter(ge=minimum, schema_extra={"one_of": nullable})


# The answers only a route with a body gives: too large, too slow, not JSON.
BODY_ERRORS = (408, 413, 415)

# Who may call a route, as the OpenAPI document says. A route without one needs no token.
TOKEN: list[SecurityRequirement] = [{"BearerToken": []}]
# A seat sees its own view, anyone else the public one.
OPTIONAL_TOKEN: list[SecurityRequirement] = [{}, {"BearerToken": []}]


def errors(*codes: int) -> dict[int, ResponseSpec]:
    """The documented error answers of a route; any route may find its client over its limit
    (429) or the database down (503)."""
    return {
        code: ResponseSpec(
            data_container=ErrorBody,
            description=_MEANINGS[code],
            generate_examples=False,
            examples=[Example(value={"status_code": code, "detail": _MEANINGS[code]})],
        )
        for code in sorted({*codes, 429, 503})
    }


def provide_token(request: AnyRequest) -> str | None:
    """The bearer token the caller sent, None when it sent no Authorization header."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    token = auth.bearer(header)
    if token is None:
        raise unauthorized("the Authorization header must be 'Bearer <token>'")
    return token


async def strictly(request: AnyRequest, data: BodyType) -> BodyType:
    """The body decoded again, strictly as documented: litestar takes "2" for 2 and 0 for false."""
    raw = await request.body()
    try:
        body = msgspec.json.decode(raw, type=type(data))
    except msgspec.ValidationError as error:
        body = integral(raw, type(data), error)
    wanted = getattr(body, "one_of", ())
    if wanted and all(getattr(body, name) is None for name in wanted):
        raise ServiceError(400, f"the body needs at least one of {', '.join(wanted)}")
    return body


def integral(raw: bytes, kind: type[BodyType], error: msgspec.ValidationError) -> BodyType:
    """The body again, its whole numbers written as floats (2.0) taken as integers, as JSON
    Schema counts them; else the 400 of the first refusal."""
    if "got `float`" in str(error):
        try:
            return msgspec.convert(_whole(msgspec.json.decode(raw)), kind)
        except msgspec.ValidationError:
            pass
    raise ServiceError(400, f"the body does not fit the schema: {error}") from None


def _whole(value: Any) -> Any:
    """A decoded JSON value with each float that is a whole number made an int."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole(item) for item in value]
    return value


def service_of(request: AnyRequest) -> MatchService:
    """The match use cases (service.http.bootstrap made them at start-up)."""
    return services(request.app).matches


def caller(request: AnyRequest) -> tuple[MatchService, str | None]:
    """The service and the caller's token: plain calls, cheaper than litestar dependencies."""
    return service_of(request), provide_token(request)
