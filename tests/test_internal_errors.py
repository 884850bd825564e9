"""A failure nobody foresaw answers a plain 500 and leaves its traceback in the server log; an
outage is logged in one line."""

import asyncio
import logging
from types import SimpleNamespace

import asyncpg
import pytest
from litestar.testing import TestClient

from service.http.app import create_app
from service.live.bots import BotRunner
from service.sources import wall_clock
from service.store import provisioning


class Kept(logging.Handler):
    """Keeps every record it is given."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record."""
        self.records.append(record)


def test_an_unforeseen_failure_is_a_plain_500_with_its_traceback_logged():
    """Given an app whose service was never started, when a route needs it, then the caller gets
    a 500 without details and the log holds the error with its traceback."""
    kept = Kept()
    logger = logging.getLogger("hearthlog")
    with TestClient(create_app()) as client:
        logger.addHandler(kept)
        try:
            answer = client.get("/matches")
        finally:
            logger.removeHandler(kept)
    assert answer.status_code == 500
    assert answer.json() == {"status_code": 500,
                             "detail": "internal server error; it has been logged"}
    assert len(kept.records) == 1
    assert "GET /matches" in kept.records[0].getMessage() and kept.records[0].exc_info


class Unreachable:
    """A match cache whose database raises ``error`` on every load."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def load(self, match_id: str) -> None:
        """Fail as the database does."""
        raise self.error

    def known(self, match_id: str) -> None:
        """Nothing is held."""


@pytest.fixture(autouse=True)
def no_outage_under_way():
    """Each test starts outside an outage (the process's Outage logs an outage's first failure
    alone: service.store.provisioning)."""
    provisioning.OUTAGE.ended()


async def bot_failure(caplog, error: Exception) -> logging.LogRecord:
    """The one record a bot's task leaves when loading its match raises ``error``."""
    runner = BotRunner(SimpleNamespace(cache=Unreachable(error), clock=wall_clock), bot_delay=0.0)
    with caplog.at_level(logging.WARNING, logger="hearthlog.bots"):
        runner.poke("m-1")
        await asyncio.gather(*runner._tasks.values())
    [record] = [r for r in caplog.records if r.name == "hearthlog.bots"]
    return record


async def test_a_background_task_logs_an_outage_in_one_line_and_a_fault_with_its_traceback(
        caplog):
    """Given a bot whose match cannot be loaded, when the database has no room for another
    session, then the warning names the outage without a traceback (as a 503 is logged); when
    the failure is anything else, then the warning keeps its traceback."""
    full = await bot_failure(caplog, asyncpg.TooManyConnectionsError("too many clients"))
    assert full.getMessage().startswith(
        "no move made in match m-1: database unavailable: TooManyConnectionsError")
    assert full.exc_info is None
    caplog.clear()
    fault = await bot_failure(caplog, KeyError("seat"))
    assert fault.getMessage() == "no move made in match m-1" and fault.exc_info


def test_asyncpg_pool_failing_to_reconnect_during_an_outage_logs_one_line():
    """Given the served app's logging, when asyncpg's pool fails to restore its connections
    because the database refuses them (down, or no primary yet in a failover), then its record
    names the error in one line without a traceback; any other error keeps its traceback."""
    from service import logs

    logs.configure()
    kept = Kept()
    kept.setLevel(logging.WARNING)
    pool = logging.getLogger("asyncpg.pool")
    pool.addHandler(kept)
    try:
        for error in (ConnectionRefusedError(111, "Connection refused"), ValueError("a bug")):
            try:
                raise error
            except Exception:
                pool.warning("Failed to restore the pool connection floor; retrying",
                             exc_info=True)
    finally:
        pool.removeHandler(kept)
    outage, fault = kept.records
    assert outage.exc_info is None and outage.getMessage().endswith(
        "retrying: database unavailable: ConnectionRefusedError")
    assert fault.exc_info is not None and fault.exc_info[0] is ValueError
