"""A streamed answer the database fails in the middle of: the server logs the failure with the
database's message, and the stream ends with a line a client can recognise (docs/export-format.md),
not a silent cut."""

from __future__ import annotations

import logging

import asyncpg
import msgspec
import pytest
from litestar.testing import AsyncTestClient

from domain.games import GAMES
from projections.export import decode_export
from projections.verify import verify
from service.cli.main import ExportFailed, cut_short
from service.http.app import create_app
from service.store import PostgresStore, queries
from service.store.provisioning import create_pool
from tests.replay.random_matches import play
from tests.store.stored import store_played

WICK = GAMES["wick-and-ember"]
REFUSAL = "cannot push down this subquery"


@pytest.fixture
async def two_finished(database_url: str) -> str:
    """A database holding two finished matches."""
    pool = await create_pool(database_url)
    try:
        store = PostgresStore(pool)
        for index in (3, 4):
            await store_played(store, WICK, play(index, game=WICK))
        await store.announcer.drain()
    finally:
        await pool.close()
    return database_url


@pytest.fixture
def failing_after_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The export's read fails, as Citus refused it, once the first match has been sent."""
    real = queries.finished_matches

    async def failing(*args, **kwargs):  # type: ignore[no-untyped-def]
        async for finished in real(*args, **kwargs):
            yield finished
            raise asyncpg.FeatureNotSupportedError(REFUSAL)

    monkeypatch.setattr(queries, "finished_matches", failing)


class Kept(logging.Handler):
    """Keeps every record it is given."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record."""
        self.records.append(record)


async def test_an_export_the_database_fails_midway_ends_with_an_error_line_and_logs_why(
    two_finished: str, failing_after_one: None
):
    """Given two finished matches and a database that fails after the first is read, when they
    are exported as NDJSON and as CSV, then each answer is 200 with the first match whole and a
    last line saying the stream was cut short (the line `hearthlog export --url` stops on), and
    the server's log names the route, how far it got and the database's message."""
    kept, logger = Kept(), logging.getLogger("hearthlog.exports")
    async with AsyncTestClient(create_app(two_finished)) as client:
        logger.addHandler(kept)  # after start-up, which configures logging
        try:
            ndjson = await client.get("/exports/matches")
            csv = await client.get("/exports/matches", params={"format": "csv"})
        finally:
            logger.removeHandler(kept)

    assert (ndjson.status_code, ndjson.headers["x-match-count"]) == (200, "2")
    first, last = ndjson.content.splitlines()
    assert verify(decode_export(first)).ok
    error = msgspec.json.decode(last)
    assert error["error"] == "export_interrupted"
    assert error["detail"].startswith("the stream was cut short after 1 lines")
    rows = csv.text.splitlines()
    assert rows[0].startswith("match_id,")  # the header, one match's seats, the error
    assert {row.split(",")[0] for row in rows[1:-1]} == {decode_export(first).header.match_id}
    assert rows[-1].startswith("#error,export_interrupted,the stream was cut short after 2 lines")
    messages = [record.getMessage() for record in kept.records]
    assert messages == [
        f"GET /exports/matches stopped after 1 lines: FeatureNotSupportedError: {REFUSAL}",
        f"GET /exports/matches stopped after 2 lines: FeatureNotSupportedError: {REFUSAL}",
    ]
    for line in (last, rows[-1].encode()):
        with pytest.raises(ExportFailed, match="the server cut the stream short"):
            cut_short(line)
    cut_short(first)  # an export line passes
