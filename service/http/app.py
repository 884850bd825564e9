"""The litestar application: routes, error answers, the lifespan (service.http.bootstrap), the
OpenAPI document."""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import re
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import asyncpg
from litestar import Litestar, Response, get
from litestar.config.cors import CORSConfig
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

from service.errors import ServiceError
from service.http.api.apps import AppController, rate_limited
from service.http.api.common import AnyRequest, errors
from service.http.api.docs_page import OfflineSwaggerUI, docs_assets
from service.http.api.documents import (
    TypedCommands,
    closed_commands,
    described_bodies,
    map_discriminators,
)
from service.http.api.exports import ExportController
from service.http.api.games import GameController
from service.http.api.matches import MatchController
from service.http.api.pages import web_client
from service.http.api.players import PlayerController
from service.http.api.queue import QueueController
from service.http.api.ratings import RatingController
from service.http.api.replays import ReplayController
from service.http.api.shaping import shape
from service.http.api.stream import StreamController
from service.http.api.tournaments import TournamentController
from service.http.bootstrap import bootstrap, services
from service.http.front import wrap
from service.http.limits import Limits
from service.logs import logged_path
from service.schemas import Health
from service.sources import Clock, SeedSource, secret_seed, wall_clock
from service.store.provisioning import OUTAGE, UNAVAILABLE, unavailable

MAX_BODY = 64 * 1024
log = logging.getLogger("hearthlog")


def service_error(_: AnyRequest, error: ServiceError) -> Response[Any]:
    """A refused request: its status and a message naming the problem."""
    retry = error.extra.get("retry_after")
    headers = {"Retry-After": str(retry)} if retry is not None else {}
    body = {"status_code": error.status, "detail": error.message}
    if error.extra:
        body["extra"] = error.extra
    return Response(content=body, status_code=error.status, headers=headers)


def database_down(_: AnyRequest, error: Exception) -> Response[Any]:
    """The database did not answer, or had no room for another session (UNAVAILABLE): 503,
    try again shortly; nothing was acknowledged."""
    OUTAGE.failed(log, "requests answered 503", error)  # one line an outage, with counts
    return service_error(_, ServiceError(503, "the database is unavailable; try again shortly",
                                         retry_after=1))


def internal_or_away(request: AnyRequest, error: Exception) -> Response[Any]:
    """A database's internal error: a Citus worker lost mid-transaction is an outage (503);
    anything else a failure nobody foresaw (500)."""
    if unavailable(error):
        return database_down(request, error)
    return internal_error(request, error)


def unreadable(_: AnyRequest, error: Exception) -> Response[Any]:
    """JSON nested too deeply to read, or a value Postgres cannot take (a NUL, a huge number)."""
    if isinstance(error, RecursionError):
        return service_error(_, ServiceError(400, "the JSON is nested too deeply"))
    return service_error(_, ServiceError(400, f"a value in the request cannot be used: {error}"))


def internal_error(request: AnyRequest, error: Exception) -> Response[Any]:
    """A failure we did not foresee: its traceback goes to the server log, the caller gets 500."""
    log.error("unhandled %s on %s %s", type(error).__name__, request.method,
              logged_path(request.scope, request.url.path), exc_info=error)
    body = {"status_code": 500, "detail": "internal server error; it has been logged"}
    return Response(content=body, status_code=500)


def bad_request(request: AnyRequest, error: HTTPException) -> Response[Any]:
    """A 400 from litestar (a body that is not JSON, a parameter of the wrong type), its
    message naming what is wrong rather than only the route."""
    extra = error.extra if isinstance(error.extra, list) and error.extra else None
    detail = "; ".join(map(named, extra)) if extra else plain_json_error(error.detail)
    body: dict[str, Any] = {"status_code": 400, "detail": detail}
    if extra:
        body["extra"] = extra
    return Response(content=body, status_code=400)


def named(problem: dict[str, Any]) -> str:
    """One of litestar's validation problems, as a sentence naming the body or the parameter."""
    key, message = problem.get("key"), str(problem.get("message"))
    source = str(getattr(problem.get("source"), "value", problem.get("source")))
    if key == "data" and source == "body":
        return whole_body(message)
    if "x00]*$" in message:  # the NO_NUL pattern (schemas.py), as the decoder quotes it
        message = "it holds a NUL character (\\u0000), which can be neither stored nor searched"
    elif "u001f" in message:  # the VISIBLE_TEXT pattern (service.names)
        message = ("it is blank, or holds a control or format character or a line break (an "
                   "escape, a newline, a zero-width or direction mark), which others would not "
                   "see as typed")
    where = f"the body's {key!r}" if source == "body" else f"{source} parameter {key!r}"
    return f"{where}: {message}"


def whole_body(message: str) -> str:
    """A problem with the body as a whole (litestar's key "data"), in words: missing, not an
    object, a field it may not have or one it lacks (msgspec's messages, re-worded)."""
    field = re.search(r"field `(.+)`", message)
    if message.startswith("Object contains unknown field") and field:
        return (f"the body has a field {field[1]!r} this request does not take (is it spelt "
                "as documented?)")
    if message.startswith("Object missing required field") and field:
        return f"the body lacks the required field {field[1]!r}"
    kind = re.fullmatch(r"Expected `object`, got `(\w+)`", message)
    if kind:
        return f"the body must be a JSON object, not {kind[1]}"
    if message in ("'data'", "None"):  # nothing was sent
        return "the body is missing: send a JSON object"
    return f"the body: {message}"


def plain_json_error(detail: str) -> str:
    """msgspec's message for a body that is not JSON, saying so (and what a truncation is)."""
    if detail == "Input data was truncated":
        return ("the body is not valid JSON: it ends early (a string, object or array not "
                "closed, or a \\u escape cut short: an unpaired UTF-16 surrogate such as "
                "\\ud800 is not a character)")
    if detail.startswith(("JSON is malformed", "Invalid UTF-8")):
        return f"the body is not valid JSON: {detail.removeprefix('JSON is malformed: ')}"
    return detail


def too_large(_: AnyRequest, __: Exception) -> Response[Any]:
    """413, naming the limit."""
    return service_error(_, ServiceError(413, f"the body is larger than {MAX_BODY // 1024} KiB"))


@get("/health", operation_id="health", summary="Liveness and database check",
     responses=errors(503), tags=["service"])
async def health(request: AnyRequest) -> Health:
    """Answers when the service and its database do."""
    try:
        await services(request.app).pool.fetchval("SELECT 1")
    except Exception:
        raise ServiceError(503, "the database is not answering", retry_after=1) from None
    return Health(status="ok", database="ok")


def openapi_config() -> OpenAPIConfig:
    """The document committed in openapi/openapi.json."""
    return OpenAPIConfig(
        title="Hearthlog",
        version="0.1.0",
        description="An event-sourced match service for card games.",
        use_handler_docstrings=True,
        path="/docs",
        render_plugins=[OfflineSwaggerUI(), JsonRenderPlugin()],
        components=Components(
            security_schemes={
                "BearerToken": SecurityScheme(
                    type="http", scheme="bearer",
                    description="A seat token (from joining) or the host token (from creating)",
                )
            }
        ),
    )


@asynccontextmanager
async def orphan_guard(_: Litestar) -> AsyncIterator[None]:
    """In a worker process (granian's), exit once the serving process is gone: a parent killed
    with SIGKILL cannot stop its workers, and an orphan would hold the port and serve on."""
    watch = None
    if multiprocessing.parent_process() is not None:
        watch = asyncio.create_task(exit_when_orphaned(os.getppid()))
    try:
        yield
    finally:
        if watch is not None:
            watch.cancel()


async def exit_when_orphaned(parent: int) -> None:
    """Look at the parent's pid every second; exit at once when it has changed."""
    while True:  # re-parenting sends no event: poll
        await asyncio.sleep(1)
        if os.getppid() != parent:
            break
    log.warning("the serving process is gone; this worker exits")
    os._exit(70)


def tune_collector() -> None:
    """Freeze what start-up made and let the cyclic collector's young generation grow larger.

    With CPython's default (a young collection every 700 new container objects), the collector
    took about a tenth of the worker's CPU on the command path and its full passes over
    start-up objects and cached states paused the worker for up to 115 ms (docs/benchmarks.md).
    Frozen objects are never scanned again; almost everything a request allocates is freed by
    reference counting before a collection of 25,000 would see it.
    """
    gc.freeze()
    gc.set_threshold(25_000, 10, 10)


def cors_config() -> CORSConfig | None:
    """CORS for client apps on other origins: HEARTHLOG_CORS_ORIGINS, comma-separated (off when
    unset). Tokens travel in the Authorization header, never in cookies: no credentials mode."""
    origins = [o.strip() for o in os.environ.get("HEARTHLOG_CORS_ORIGINS", "").split(",")]
    if not any(origins):
        return None
    return CORSConfig(
        allow_origins=[o for o in origins if o],
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=["Authorization", "Content-Type", "Last-Event-ID", "X-Api-Key"],
        expose_headers=["Retry-After", "X-Match-Count", "RateLimit", "RateLimit-Policy"],
    )


def on_database(
    database_url: str, read_url: str | None, limits: Limits, *, seeds: SeedSource, clock: Clock,
    listen_url: str | None = None,
) -> Callable[[Litestar], AbstractAsyncContextManager[None]]:
    """The lifespan that serves on the database: ``bootstrap`` made at start-up (every service,
    drawing seeds from ``seeds`` and telling the time by ``clock``; LISTEN and the migrations
    on ``listen_url`` when given), closed at shutdown."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        """Bootstrap on start-up, keep the services in the app's state, close them on shutdown."""
        async with bootstrap(database_url, read_url, limits, seeds=seeds, clock=clock,
                             listen_url=listen_url) as made:
            app.state.services = made
            tune_collector()
            yield

    return lifespan


LISTEN_DATABASE_URL = "HEARTHLOG_LISTEN_DATABASE_URL"


def create_app(database_url: str | None = None, read_database_url: str | None = None, *,
               seeds: SeedSource = secret_seed, clock: Clock = wall_clock,
               listen_database_url: str | None = None) -> Litestar:
    """The application; with a database URL it connects, migrates and serves on start-up; with
    a read database URL (else HEARTHLOG_READ_DATABASE_URL) stale-safe reads go to that standby;
    with a listen database URL (else HEARTHLOG_LISTEN_DATABASE_URL), a direct connection to the
    primary when the database URL is a pooler's, it listens and migrates there.
    ``seeds`` and ``clock`` are production's unless an in-process test hands in its own."""
    from service.store.replica import READ_DATABASE_URL

    read_url = read_database_url or os.environ.get(READ_DATABASE_URL)
    listen_url = listen_database_url or os.environ.get(LISTEN_DATABASE_URL)
    limits = Limits.from_env()
    app = Litestar(
        route_handlers=[health, GameController, MatchController, StreamController,
                        ReplayController, ExportController, TournamentController,
                        PlayerController, RatingController,
                        AppController, QueueController, web_client(), docs_assets()],
        exception_handlers={
            ServiceError: service_error,
            **{kind: database_down for kind in UNAVAILABLE},
            asyncpg.InternalServerError: internal_or_away,
            RecursionError: unreadable,
            asyncpg.DataError: unreadable,
            400: bad_request,
            413: too_large,
            500: internal_error,
        },
        cors_config=cors_config(),
        openapi_config=openapi_config(),
        plugins=[TypedCommands()],
        lifespan=[orphan_guard, on_database(database_url, read_url, limits, seeds=seeds,
                                            clock=clock, listen_url=listen_url)]
        if database_url else [],
        request_max_body_size=MAX_BODY,
    )
    wrap(app, limits, clock)
    described_bodies(app.openapi_schema)
    map_discriminators(app.openapi_schema)
    closed_commands(app.openapi_schema)
    shape(app.openapi_schema)  # as generators read it with default options
    rate_limited(app.openapi_schema)  # X-Api-Key and the RateLimit fields, on every route
    return app
