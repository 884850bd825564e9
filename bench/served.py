"""The two apps the HTTP benchmark serves, as factories a server process imports.

``hearthlog`` is the service exactly as ``hearthlog serve`` runs it (access log included);
``bare`` is the baseline: one litestar route doing one asyncpg INSERT per request, on a pool
made the same way, in a process whose collector is set as the service's (``tune_collector``),
so both are measured alike (with CPython's default, as it was until issue 33's fifth stop, its
full collections were in up to all of its slowest 1% of requests at 64 matches). Both read the
database URL from HEARTHLOG_BENCH_DATABASE_URL.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from litestar import Litestar, Request, post

from bench.stalls import served_hooks
from service import logs
from service.http.app import create_app, tune_collector
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


def bare() -> Litestar:
    """The baseline app, its collector set after start-up as the service's is."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        """A pool like the service's, and the table."""
        app.state.pool = await create_pool(database_url())
        await app.state.pool.execute(TABLE)
        tune_collector()
        try:
            yield
        finally:
            await app.state.pool.close()

    starts, ends = served_hooks()
    return Litestar(route_handlers=[bare_insert], lifespan=[lifespan], on_startup=starts,
                    on_shutdown=ends)
