"""PostgresStore's append as one statement, the head cache it chains from, and its announcements.

One round trip per append: a single statement moves the match's head (its narrow row in
``heads``: version, head hash, time of the last append) only where the version is the one
expected and the head hash is the one the new hashes were chained from, and writes the events,
the match row's read model (status, summary, seats taken, finish), the seat token and the
command record only if that update hit a row. The statement has only the parts the append
needs, one prepared statement per shape: the usual append is one event that leaves the match
row as it was, and then the wide match row is not rewritten at all (docs/benchmarks.md: that
rewrite was the largest cost of an append). The row part is left out only when this process
wrote the very same values with the expected version and head hash: the statement lands only on
a head at that version and hash, and the read model is a function of the events, so nothing else
gives the same version and head other values. A single statement is atomic: if the version
moved on nothing is written, and a duplicate command id or seat token fails the whole statement.
The caller chains the hashes from the head it knows for the expected version (from its own
writes and reads, else read first); the WHERE clause turns a wrong guess into nothing written,
never into a broken chain.

Appends travel together: with nothing in flight an append goes at once, alone; those that pile
up while an append or a batch is in flight go in the next batch, each shape's statements
pipelined in one round trip and one transaction (``Batches``), as a database's group commit
does. Each statement keeps its own guard, so an append refused in a batch writes nothing and the
others land; an error that rolls the batch back (a duplicate command id) sends each of its
appends again alone, so only the one at fault fails. At 32 writers the batches cut Postgres's
CPU per append from 146 to 32 µs (docs/benchmarks.md, "Seventh stop").

Announcements: a transaction that sends NOTIFY holds a cluster-wide lock through its commit, WAL
flush included, so a NOTIFY inside every append serialises all appends (docs/benchmarks.md). So
they are sent just after the commit, many in one statement, by one task per store. As before,
only committed appends are announced, and a lost one costs nothing: followers re-read the store.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import uuid
from collections import OrderedDict
from datetime import datetime
from typing import Any

import asyncpg
import msgspec

from domain.core.chain import chain
from service.store.records import Change, OwedSince

log = logging.getLogger("hearthlog.store")

# The statement is put together for the append's shape (one event, several, none; the match
# row's read model; a seat token; a command record; how each owing time is found), so each part
# is written only when there is something to write; each shape is one prepared statement. ``{}``
# marks the parameters a part adds after the first six.
# The append's time is a parameter ($6, the store's clock), never now(): Citus refuses a
# non-immutable function inside CASE or COALESCE (docs/scaling.md), and one value written
# everywhere keeps the head, the events, the finish and the owing times equal. It never goes
# back within a match: greatest() with the head's last time (a server whose clock is behind).
_AT = "greatest($6::timestamptz, updated_at)"
# When a seat began to owe (service.store.records.OwedSince), by the match version it began at:
# nobody owes (NULL); a version this append writes (its own time); an earlier version (that
# event's recorded time, migration 0006). The store knows which from the values, so the shape
# holds only the one it needs: a lookup in every statement, even one never run, made Postgres
# plan each append afresh instead of reusing its plan (docs/benchmarks.md, issue #33 item 4).
_NOBODY, _THIS, _EARLIER = "NULL", _AT, "(SELECT recorded_at FROM events WHERE match_id = $1 " \
    "AND version = {}::int)"
_HEAD = """
WITH head AS (
    UPDATE heads SET version = $3, head_hash = $4, updated_at = """ + _AT + """,
        owed_since = {}, bot_owed_since = {}
    WHERE match_id = $1 AND version = $2 AND head_hash = $5
    RETURNING updated_at
)"""
_ROW = """, match_row AS (
    UPDATE matches SET status = {}, summary = {}, seats_taken = coalesce({}, seats_taken),
        finished_at = CASE WHEN {} THEN coalesce(finished_at, head.updated_at)
                      ELSE finished_at END
    FROM head WHERE match_id = $1
)"""
_ONE_EVENT = """, written AS (
    INSERT INTO events (match_id, version, type, data, metadata, recorded_at, hash)
    SELECT $1, $3, {}, {}::json, {}, head.updated_at, $4 FROM head
)"""
_EVENTS = """, written AS (
    INSERT INTO events (match_id, version, type, data, metadata, recorded_at, hash)
    SELECT $1, e.version, e.type, e.data::json, e.metadata, head.updated_at, e.hash
    FROM head, unnest({}::int[], {}::text[], {}::text[], {}::jsonb[], {}::bytea[])
        AS e(version, type, data, metadata, hash)
)"""
_TOKEN = """, token AS (
    INSERT INTO seat_tokens (match_id, seat, token_hash) SELECT $1, {}, {} FROM head
)"""
_COMMAND = """, command AS (
    INSERT INTO commands (match_id, command_id, seat, response, status_code, version,
        recorded_at)
    SELECT $1, {}, {}, {}, {}, {}, head.updated_at FROM head
)"""


@functools.cache
def statement(events: int, row: bool, token: bool, command: bool,
              since: tuple[str, str] = (_NOBODY, _NOBODY)) -> str:
    """The append statement for ``events`` new events (0, 1 or more), the match row's read model,
    a seat token, a command record, and how the owing seat's and bot seat's times are found
    (``since``: each ``owing``'s answer)."""
    numbers = itertools.count(7)
    times = [kind.format(f"${next(numbers)}") if kind == _EARLIER else kind for kind in since]
    parts = [_ROW if row else "", "" if events == 0 else _ONE_EVENT if events == 1
             else _EVENTS, _TOKEN if token else "", _COMMAND if command else ""]
    text = _HEAD.format(*times) + "".join(
        part.format(*(f"${next(numbers)}" for _ in range(part.count("{}")))) for part in parts)
    # One row whatever happened (NULL: refused), so a batch's answers line up with its appends.
    return text + "\nSELECT (SELECT updated_at FROM head)\n"


def owing(expected: int, version: int | None) -> str:
    """How the time a seat began to owe at ``version`` is found by an append at ``expected``."""
    return _NOBODY if version is None else _THIS if version > expected else _EARLIER


def _event_args(expected: int, events: list[Any], hashes: list[bytes]) -> list[Any]:
    """The events' parameters: one event's own values, or parallel arrays of several."""
    if len(events) == 1:
        return [events[0].type, events[0].data.decode(), events[0].metadata]
    if not events:
        return []
    return [list(range(expected + 1, expected + len(events) + 1)), [e.type for e in events],
            [e.data.decode() for e in events], [e.metadata for e in events], hashes]


HEAD = "SELECT version, head_hash FROM heads WHERE match_id = $1"

# The match row's read model as an append writes it: status, summary (JSON), seats taken (None
# keeps the row's), finished.
Row = tuple[str, bytes, int | None, bool]
ANNOUNCE = "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload"


class Refused(Exception):
    """The append wrote nothing: the row is at ``version`` with ``head`` (None: no such match)."""

    def __init__(self, version: int | None, head: bytes | None) -> None:
        super().__init__(f"refused at version {version}")
        self.version, self.head = version, head


class Heads:
    """What this process last wrote or read of each match: version, head hash, row; a cache.

    The row is the match row's read model this process wrote with that version (None when it
    only read the head), so an append that leaves it unchanged need not write it again. Kept by
    the id's integer: a UUID hashes and compares in Python, an int in C, on every append.
    """

    def __init__(self, capacity: int = 10_000) -> None:
        self._heads: OrderedDict[int, tuple[int, bytes, Row | None]] = OrderedDict()
        self._capacity = capacity

    def get(self, key: uuid.UUID, version: int) -> bytes | None:
        """The head hash at ``version``, if that is the version known."""
        known = self._heads.get(key.int)
        return known[1] if known is not None and known[0] == version else None

    def row(self, key: uuid.UUID, version: int, head: bytes) -> Row | None:
        """The row this process wrote with ``version`` and ``head``, if it is the one known."""
        known = self._heads.get(key.int)
        return known[2] if known is not None and known[:2] == (version, head) else None

    def put(self, key: uuid.UUID, version: int, head: bytes, row: Row | None = None) -> None:
        """Remember a head hash (and the row written with it), unless a later one is known."""
        number = key.int
        known = self._heads.get(number)
        if known is None or known[0] <= version:
            self._heads[number] = (version, head, row)
            self._heads.move_to_end(number)
            if len(self._heads) > self._capacity:
                self._heads.popitem(last=False)


async def read_head(pool: asyncpg.Pool, key: uuid.UUID) -> tuple[int | None, bytes | None]:
    """The match's head version and hash, or (None, None)."""
    row = await pool.fetchrow(HEAD, key)
    return (None, None) if row is None else (row["version"], row["head_hash"])


def row_of(change: Change) -> Row:
    """The match row's read model an append writes (the summary as its JSON bytes)."""
    return (change.status, msgspec.json.encode(change.summary), change.seats_taken,
            change.finished)


async def append_once(batches: Batches, key: uuid.UUID, expected: int, head: bytes,
                      events: list[Any], change: Change, row: Row | None, at: datetime,
                      ) -> tuple[datetime, list[bytes]]:
    """Run the statement once at time ``at`` (in the next batch), chaining from ``head``,
    writing the change (its row only when ``row`` is given) and the versions the longest-owing
    seat and bot seat began to owe at; the time recorded (``at``, or the head's last if later);
    Refused when it hit no head."""
    hashes = chain([event.data for event in events], head)
    owed = change.owed or OwedSince()
    seat_token, command = change.seat_token, change.command
    args: list[Any] = [key, expected, expected + len(events), hashes[-1] if hashes else head,
                       head, at]
    since = (owing(expected, owed.clock), owing(expected, owed.bots))
    args += [version for version, kind in zip((owed.clock, owed.bots), since, strict=True)
             if kind == _EARLIER]
    if row is not None:
        args += row
    args += _event_args(expected, events, hashes)
    if seat_token is not None:
        args += seat_token
    if command is not None:
        args += [command.command_id, command.seat, command.response, command.status_code,
                 command.version]
    query = statement(min(len(events), 2), row is not None, seat_token is not None,
                      command is not None, since)
    now = await batches.fetch(query, args)
    if now is None:
        raise Refused(*await read_head(batches.pool, key))
    return now, hashes


Pending = tuple[str, list[Any], asyncio.Future[datetime | None]]  # a statement, its caller


class Batches:
    """Sends the appends' statements, those that pile up while one is in flight together in the
    next batch: each shape's statements pipelined in one round trip and one transaction
    (asyncpg's ``fetchmany``), one task per store, as the announcer sends its batches. With
    nothing in flight, a statement goes at once from its caller's task, as it would alone.

    Every statement keeps its own guard, so one refused in a batch (NULL: it hit no head) writes
    nothing while the others land. An error Postgres reports rolls the whole transaction back:
    its statements are then sent again one by one, so each caller gets its own answer or error
    (a duplicate command id fails only its append). A batch's statements are ordered by match (each
    statement's first argument is its match's id; a match's own stay in the order sent), the
    same order in every process, so two batches never wait on each other's heads in a cycle.
    An error that leaves the outcome unknown (the connection lost) is every caller's, as it
    would be alone. A caller is answered only after its batch's commit.
    """

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self._pending: list[Pending] = []
        self._task: asyncio.Task[None] | None = None
        self._busy = False  # a statement or a batch in flight

    async def fetch(self, query: str, args: list[Any]) -> datetime | None:
        """Run ``query`` with ``args`` (at once if nothing is in flight, else in the next
        batch); its one value."""
        if not self._busy:
            self._busy = True
            try:
                return await self.pool.fetchval(query, *args)
            finally:  # what arrived meanwhile goes next, together
                self._next()
        answer: asyncio.Future[datetime | None] = asyncio.get_running_loop().create_future()
        self._pending.append((query, args, answer))
        return await answer

    def _next(self) -> None:
        """Start the task that sends what is waiting, if anything is; else nothing is busy."""
        self._busy = bool(self._pending)
        if self._busy:
            self._task = asyncio.get_running_loop().create_task(self._send())

    async def _send(self) -> None:
        """Send batches until none is left, each shape's statements together."""
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                shapes: dict[str, list[Pending]] = {}
                for pending in batch:
                    shapes.setdefault(pending[0], []).append(pending)
                await asyncio.gather(*(self._together(query, sent)
                                       for query, sent in shapes.items()))
        except BaseException as error:  # cancelled: no caller is left waiting for nothing
            batch, self._pending = self._pending, []
            for _, _, answer in batch:
                _fail(answer, error)
            raise
        finally:
            self._busy = False

    async def _together(self, query: str, sent: list[Pending]) -> None:
        """One shape's statements in one transaction; again one by one if it rolled back."""
        try:
            if len(sent) > 1:
                sent.sort(key=lambda pending: pending[1][0].int)  # stable: by match, then sent
                try:
                    rows = await self.pool.fetchmany(query, [args for _, args, _ in sent])
                except asyncpg.PostgresError:
                    pass  # rolled back: whose statement failed is found one by one, below
                else:
                    for (_, _, answer), found in zip(sent, rows, strict=True):
                        _settle(answer, found[0])
                    return
            for _, args, answer in sent:
                try:
                    value = await self.pool.fetchval(query, *args)
                except Exception as error:
                    _fail(answer, error)
                else:
                    _settle(answer, value)
        except Exception as error:  # not the server's refusal (the connection lost, say):
            for _, _, answer in sent:  # whether it committed is unknown, as it is alone
                _fail(answer, error)
        except BaseException as error:  # cancelled: so is every caller still waiting
            for _, _, answer in sent:
                _fail(answer, error)
            raise


def _settle(answer: asyncio.Future[datetime | None], value: datetime | None) -> None:
    """Give a caller its value, unless it stopped waiting."""
    if not answer.done():
        answer.set_result(value)


def _fail(answer: asyncio.Future[datetime | None], error: BaseException) -> None:
    """Give a caller the error (cancelled if the batch was), unless it stopped waiting."""
    if answer.done():
        return
    if isinstance(error, asyncio.CancelledError):
        answer.cancel()
    else:
        answer.set_exception(error)


class Announcer:
    """Sends ``<match_id>:<version>`` on a channel after each commit, batching what piles up."""

    def __init__(self, pool: asyncpg.Pool, channel: str) -> None:
        self.pool, self.channel = pool, channel
        self._pending: list[str] = []
        self._task: asyncio.Task[None] | None = None

    def announce(self, payload: str) -> None:
        """Queue one announcement; a single task sends the queue, one statement per batch."""
        self._pending.append(payload)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._send())

    async def drain(self) -> None:
        """Wait until every queued announcement was sent (before closing the pool)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def _send(self) -> None:
        """Send batches until none is left; a failure loses only wake-ups, never data."""
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self.pool.execute(ANNOUNCE, self.channel, batch)
            # InternalClientError: a pooled connection asyncpg was still resetting after an
            # outage ("another operation is in progress"); like the rest, only wake-ups are lost.
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError,
                    asyncpg.InternalClientError) as error:
                log.warning("could not announce %d appends: %r", len(batch), error)
