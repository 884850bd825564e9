"""A streaming standby for reads: its pool, whether it answers, and how far behind it is.

A probe (run once a ``probe_seconds`` by service.live.probing) reads the primary's WAL position,
then the standby's replayed position. When the standby has replayed at least what the primary had
written at the probe's start, it held everything committed before that moment: ``caught_up_at``.
Its lag is the time since then, so a standby that is paused, cut off from its primary or stopped
grows older by itself, and an idle primary (nothing new to replay) never makes it look behind. A
standby that fails a probe or a read is ``down`` until a probe answers again. Routing is in
service.reads; docs/scaling.md ("Read replica") says what goes where.
"""

from __future__ import annotations

import logging
import os
import time

import asyncpg
import msgspec

from service.store import PostgresStore
from service.store.provisioning import UNAVAILABLE

log = logging.getLogger("hearthlog.replica")

READ_DATABASE_URL = "HEARTHLOG_READ_DATABASE_URL"
_PRIMARY_LSN = "SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint"
_STANDBY_LSN = """SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()
    ELSE pg_current_wal_lsn() END - '0/0'::pg_lsn)::bigint"""

# What a standby that is down, full, starting, shutting down, missing the database or cancelling
# a query that conflicts with its replay (40001) raises; a bad value (DataError) is not among them.
STANDBY_FAILURES = (*UNAVAILABLE, asyncpg.SerializationError, asyncpg.InvalidCatalogNameError)


class ReadSettings(msgspec.Struct, frozen=True, kw_only=True):
    """HEARTHLOG_READ_MAX_LAG_SECONDS (listings and many-match exports go to the standby only
    while it is at most this far behind; default 5) and HEARTHLOG_READ_PROBE_SECONDS (how often
    its lag is measured; default 1)."""

    max_lag: float = 5.0
    probe_seconds: float = 1.0

    @classmethod
    def from_env(cls) -> ReadSettings:
        """The settings from the environment, defaults for what is unset."""
        given = {"max_lag": os.environ.get("HEARTHLOG_READ_MAX_LAG_SECONDS"),
                 "probe_seconds": os.environ.get("HEARTHLOG_READ_PROBE_SECONDS")}
        # Only what is set: an unset one keeps the field's default (on a msgspec Struct the
        # class attribute is a descriptor, not the default).
        return cls(**{field: float(value) for field, value in given.items() if value})


class Standby:
    """The standby's pool and store, kept measured by a probe against the primary's pool
    (run every ``probe_seconds`` by service.live.probing)."""

    def __init__(self, pool: asyncpg.Pool, primary: asyncpg.Pool, settings: ReadSettings) -> None:
        self.pool, self.primary, self.settings = pool, primary, settings
        self.store = PostgresStore(pool)
        self.up = False
        self.caught_up_at: float | None = None  # time.monotonic() of the last proof

    @classmethod
    async def open(cls, url: str, primary: asyncpg.Pool, settings: ReadSettings) -> Standby:
        """A pool on the standby (opened even when it is down: it may come up later), probed
        once before the first request."""
        from service.store.provisioning import create_pool

        pool = await create_pool(url, min_size=0, max_size=16, timeout=2,
                                 server_settings={"application_name": "hearthlog-read"})
        standby = cls(pool, primary, settings)
        await standby.probe()
        return standby

    def lag(self) -> float | None:
        """Seconds since the standby was last proven to hold everything; None: never proven."""
        if self.caught_up_at is None:
            return None
        return time.monotonic() - self.caught_up_at

    def fresh(self) -> bool:
        """Up, and proven at most ``max_lag`` seconds behind."""
        lag = self.lag()
        return self.up and lag is not None and lag <= self.settings.max_lag

    def failed(self, error: BaseException) -> None:
        """A read on the standby failed: send reads to the primary until a probe answers."""
        if self.up:
            log.warning("the standby failed a read (%s); reads go to the primary",
                        type(error).__name__)
        self.up = False

    async def probe(self) -> None:
        """Measure once: the primary's position first, then the standby's replayed one."""
        started = time.monotonic()
        try:
            written = await self.primary.fetchval(_PRIMARY_LSN)
        except STANDBY_FAILURES:
            written = None  # the primary is down: the standby cannot be proven current
        try:
            replayed = await self.pool.fetchval(_STANDBY_LSN)
        except STANDBY_FAILURES as error:
            self.failed(error)
            return
        if not self.up:
            log.info("the standby answers; stale-safe reads go to it")
        self.up = True
        if written is not None and replayed is not None and replayed >= written:
            self.caught_up_at = started

    async def close(self) -> None:
        """Close the pool."""
        await self.pool.close()
