"""How many worker processes `hearthlog serve` runs, and the database connections each may hold.

Every worker holds its own pool (service.store.provisioning.create_pool) and one LISTEN connection
(service.live.hub.Listener), so N workers hold up to N x (pool + 1) connections of the database's
``max_connections``. The serving process reads that setting once, before any worker starts, and
gives each worker the largest pool that fits (at most POOL_SIZE), or refuses to start when even
a pool of two does not (docs/scaling.md, the capacity model).
"""

from __future__ import annotations

import asyncio
import os

import asyncpg
import msgspec

from service.store.provisioning import statement_cache_size
from service.workers import usable_cores

WORKERS_VARIABLE = "HEARTHLOG_WORKERS"
POOL_VARIABLE = "HEARTHLOG_POOL_SIZE"  # what a worker's pool may grow to (set by the parent)
POOL_SIZE = 32  # the most one worker's pool holds (docs/benchmarks.md: fewer raised the p99)
SPARE = 10  # connections left for psql, migrations, a second server starting, exports


class Budget(msgspec.Struct, frozen=True, kw_only=True):
    """The database's connections and how they are shared by the workers."""

    max_connections: int
    reserved: int  # kept for superusers (and, on Postgres 16+, reserved_connections)
    workers: int
    pool: int  # the most each worker's pool holds

    @property
    def held(self) -> int:
        """The most every worker together holds: its pool and its listener."""
        return self.workers * (self.pool + 1)

    def describe(self) -> str:
        """One line for the serving process's output."""
        return (f"{self.workers} worker(s) x (pool {self.pool} + 1 listener) = at most "
                f"{self.held} of the database's {self.max_connections} connections "
                f"({self.reserved} reserved, {SPARE} spare)")


class DoesNotFit(Exception):
    """N workers' pools do not fit in the database's max_connections."""


def worker_count(given: int | None) -> int:
    """--workers, else HEARTHLOG_WORKERS, else one per usable core."""
    if given is not None:
        return given
    value = os.environ.get(WORKERS_VARIABLE, "").strip()
    if not value:
        return usable_cores()
    if not value.isdigit() or int(value) < 1:
        raise DoesNotFit(f"{WORKERS_VARIABLE} must be a whole number of 1 or more, not {value!r}")
    return int(value)


def share(max_connections: int, reserved: int, workers: int, wanted: int = POOL_SIZE) -> Budget:
    """The pool each of ``workers`` gets out of the database's free connections."""
    free = max_connections - reserved - SPARE
    pool = min(wanted, free // workers - 1)
    if pool < 2:
        raise DoesNotFit(
            f"{workers} workers need at least {workers * 3} connections (a pool of 2 and a "
            f"listener each) besides {reserved} reserved and {SPARE} spare, but the database "
            f"allows {max_connections} (max_connections): run fewer workers, raise "
            "max_connections or put a pooler in front (docs/scaling.md)")
    return Budget(max_connections=max_connections, reserved=reserved, workers=workers, pool=pool)


async def read_limits(url: str) -> tuple[int, int]:
    """The database's max_connections and the connections it reserves."""
    conn = await asyncpg.connect(url, timeout=10, statement_cache_size=statement_cache_size())
    try:
        rows = await conn.fetch(
            """SELECT name, setting::int FROM pg_settings WHERE name IN
            ('max_connections', 'superuser_reserved_connections', 'reserved_connections')""")
    finally:
        await conn.close()
    found = {row[0]: row[1] for row in rows}
    reserved = found.get("superuser_reserved_connections", 3) + found.get("reserved_connections", 0)
    return found["max_connections"], reserved


def budget(url: str, workers: int) -> Budget:
    """The pool per worker for this database (HEARTHLOG_POOL_SIZE, if set, is the most wanted)."""
    wanted = int(os.environ.get(POOL_VARIABLE) or POOL_SIZE)
    try:
        limits = asyncio.run(read_limits(url))
    except ValueError as error:  # a setting that is none (HEARTHLOG_DATABASE_STATEMENT_CACHE)
        raise DoesNotFit(str(error)) from None
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        raise DoesNotFit(f"cannot read the database's max_connections: {error}") from None
    return share(*limits, workers, wanted)


def pool_size() -> int:
    """In a worker: the most its pool may hold (what the serving process worked out)."""
    return int(os.environ.get(POOL_VARIABLE) or POOL_SIZE)
