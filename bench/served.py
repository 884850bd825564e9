"""The two apps the HTTP benchmark serves, as factories a server process imports.

``hearthlog`` is the service exactly as ``hearthlog serve`` runs it (access log included);
``bare`` is the baseline: one litestar route doing one asyncpg INSERT per request, on a pool
made the same way, in a process whose collector is set as the service's (``tune_collector``),
so both are measured alike (with CPython's default, as it was until issue 33's fifth stop, its
full collections were in up to all of its slowest 1% of requests at 64 matches). The bare app
also holds the floor of a move that tells its seats (issue 33's sixth stop):
``/bare/{table}/move`` does that INSERT, then sends one SSE frame, encoded once, to each stream
open on the table at ``/bare/{table}/stream``, through litestar's ServerSentEvent as the
service's streams are. Both read the database URL from HEARTHLOG_BENCH_DATABASE_URL.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from litestar import Litestar, Request, get, post
from litestar.response import ServerSentEvent

from bench.stalls import served_hooks
from service import logs
from service.http.api.stream import Encoded, frame
from service.http.app import create_app, tune_collector
from service.live.feed import Served
from service.store.provisioning import create_pool

TABLE = """CREATE TABLE IF NOT EXISTS bare_rows (
    match_id uuid NOT NULL, version int NOT NULL, type text NOT NULL, data json NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{}', recorded_at timestamptz NOT NULL DEFAULT now(),
    hash bytea NOT NULL, PRIMARY KEY (match_id, version))"""
INSERT = """INSERT INTO bare_rows (match_id, version, type, data, metadata, hash)
    VALUES ($1, 1, 'bare', $2, $3, $4)"""


def database_url() -> str:
    """The benchmark's database."""
    return os.environ["HEARTHLOG_BENCH_DATABASE_URL"]


def hearthlog() -> Litestar:
    """The service, as `hearthlog serve` builds it."""
    logs.configure()
    app = create_app(database_url())
    starts, ends = served_hooks()  # a stall watch, when the benchmark asks (bench/stalls.py)
    app.on_startup.extend(starts)
    app.on_shutdown.extend(ends)
    return app


class BareBody(msgspec.Struct, kw_only=True):
    """The same body a command request carries."""

    command: dict[str, Any]
    command_id: str | None = None


@post("/bare", status_code=200)
async def bare_insert(request: Request, data: BareBody) -> dict[str, int]:
    """Insert one row the size of an event; answer its version."""
    body = msgspec.json.encode(data.command)
    await request.app.state.pool.execute(
        INSERT, uuid.uuid4(), body.decode(), {"command_id": data.command_id}, bytes(32))
    return {"version": 1}


class Followers:
    """The bare tables' streams (a queue each) and versions, in the bare process."""

    def __init__(self) -> None:
        self.queues: defaultdict[int, list[asyncio.Queue[Encoded]]] = defaultdict(list)
        self.versions: defaultdict[int, int] = defaultdict(int)

    def frame(self, table: int) -> Encoded:
        """The table's frame now: its version and one action, as a seat's update names them,
        written by the service's own SSE frame writer."""
        version = self.versions[table]
        data = msgspec.json.encode({"version": version, "actions": [{"command": {}}]}).decode()
        return Encoded(frame(Served(first=version, version=version, data=data)), version)


@get("/bare/{table:int}/stream")
async def bare_stream(request: Request, table: int) -> ServerSentEvent:
    """A bare table's stream: its version now, then one frame per move."""
    followers: Followers = request.app.state.followers
    queue: asyncio.Queue[Encoded] = asyncio.Queue()
    followers.queues[table].append(queue)
    queue.put_nowait(followers.frame(table))

    async def frames() -> AsyncIterator[Encoded]:
        """The frames as they come, until the stream is closed."""
        try:
            while True:
                yield await queue.get()
        finally:
            followers.queues[table].remove(queue)

    return ServerSentEvent(frames())


@post("/bare/{table:int}/move", status_code=200)
async def bare_move(request: Request, table: int, data: BareBody) -> dict[str, int]:
    """The bare route's INSERT, then the table's new frame (encoded once) to each stream."""
    body = msgspec.json.encode(data.command)
    await request.app.state.pool.execute(
        INSERT, uuid.uuid4(), body.decode(), {"command_id": data.command_id}, bytes(32))
    followers: Followers = request.app.state.followers
    followers.versions[table] += 1
    update = followers.frame(table)
    for queue in followers.queues[table]:
        queue.put_nowait(update)
    return {"version": followers.versions[table]}


def bare() -> Litestar:
    """The baseline app, its collector set after start-up as the service's is."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        """A pool like the service's, and the table."""
        app.state.pool = await create_pool(database_url())
        app.state.followers = Followers()
        await app.state.pool.execute(TABLE)
        tune_collector()
        try:
            yield
        finally:
            await app.state.pool.close()

    starts, ends = served_hooks()
    return Litestar(route_handlers=[bare_insert, bare_stream, bare_move], lifespan=[lifespan],
                    on_startup=starts, on_shutdown=ends)
