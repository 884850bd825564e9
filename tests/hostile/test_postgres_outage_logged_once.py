"""Attack: a database outage under load, and the log it leaves (issue #34, defect 11).

Stopping Postgres for 8 s logged 4 to 6 of the driver pool's tracebacks and 1,400 to 5,260
"database unavailable" lines, one per refused request. An outage is now logged once when it
begins and once when it ends (service.store.provisioning.Outage), with the failures counted by
kind; the pool's own records of it are counted the same way and never carry a traceback.
"""

from __future__ import annotations

import logging

import asyncpg

from service.logs import outage_in_one_line
from service.store import provisioning
from service.store.provisioning import Outage


class Clock:
    """Seconds a test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_outage_is_one_line_when_it_begins_and_one_when_it_ends_with_counts(caplog):
    """Given 1,400 requests answered 503 and 12 bot moves failing over 8 s of an outage, when a
    connection is opened again, then the log holds exactly two lines: the first failure, and
    the end with its length and each kind's count."""
    clock = Clock()
    outage, logger = Outage(clock), logging.getLogger("hearthlog")
    error = ConnectionRefusedError()
    with caplog.at_level(logging.WARNING):
        for n in range(1400):
            clock.now = 100 + n * 8 / 1400
            outage.failed(logger, "requests answered 503", error)
        for _ in range(12):
            outage.failed(logger, "the bot's move in %s failed", error, "a match")
        outage.ended()
        outage.ended()  # a second connection opened: nothing more to say
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2, lines
    assert lines[0].startswith("requests answered 503: database unavailable: "
                               "ConnectionRefusedError")
    assert "database available again (it failed for 8.0 s)" in lines[1]
    assert "requests answered 503: 1400" in lines[1]
    assert "the bot's move in %s failed: 12" in lines[1]


def test_failures_far_apart_are_two_outages_though_no_connection_was_opened(caplog):
    """Given a failure, then none for longer than QUIET seconds, when another comes, then the
    first outage's end is logged before the second's beginning."""
    clock = Clock()
    outage, logger = Outage(clock), logging.getLogger("hearthlog")
    with caplog.at_level(logging.WARNING):
        outage.failed(logger, "requests answered 503", OSError())
        clock.now += provisioning.QUIET + 1
        outage.failed(logger, "requests answered 503", OSError())
    lines = [record.getMessage() for record in caplog.records]
    assert [line.split(":")[0].split(" (")[0] for line in lines] == [
        "requests answered 503", "database available again", "requests answered 503"]


def test_the_pools_records_of_an_outage_are_counted_not_each_logged(monkeypatch):
    """Given asyncpg's pool logging one failed reconnection after another with their
    tracebacks, then the first passes as one line naming the error, the rest are dropped;
    a record that is not an outage is left whole."""
    monkeypatch.setattr(provisioning, "OUTAGE", Outage(Clock()))
    monkeypatch.setattr("service.logs.OUTAGE", provisioning.OUTAGE)

    def record(error: BaseException) -> logging.LogRecord:
        return logging.LogRecord("asyncpg.pool", logging.WARNING, __file__, 1,
                                 "pool could not reconnect", None, (type(error), error, None))

    kept = [outage_in_one_line(rec) for rec in (record(asyncpg.CannotConnectNowError()),
                                                 *(record(OSError()) for _ in range(5)))]
    assert kept == [True] + [False] * 5
    fault = record(ValueError("a bug"))
    assert outage_in_one_line(fault) and fault.exc_info is not None
