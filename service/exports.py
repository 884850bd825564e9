"""Replays, exports and verification: use cases over the event store that guard the seed.

Anything showing a seed or a hidden card (the full replay, the export) is served only for a
finished match. A past view goes through the game's observer; while the match runs a seat may
see only its own past. Many matches stream from a server-side cursor, a chunk at a time, as
NDJSON documents or as the tables of projections.tables: CSV, or Parquet (written whole, by
polars, the optional `parquet` extra: docs/export-format.md has the sizes and load times).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from io import BytesIO
from typing import Any, Final

import msgspec

from domain.core import match
from domain.core.cells import csv_text
from domain.core.decider import Game
from projections.export import MatchExport, build_export, encode_export
from projections.replay import Replay, full_replay, state_at
from projections.tables import EVENT_COLUMNS, MATCH_COLUMNS, MATCH_KINDS, event_rows, match_rows
from projections.verify import Report, verify, verify_chain
from service import schemas, views
from service.access import Access
from service.errors import ServiceError, not_found
from service.loading import Loaded, kept_times, rules_of
from service.store import EventStore, ExportFilter, FinishedMatch, MatchRow, match_uuid
from service.store.provisioning import unavailable

CHUNK = 64 * 1024
log = logging.getLogger("hearthlog.exports")
# The last line of a streamed answer cut short by a failure (docs/export-format.md): the 200
# and the first lines are sent already, so the stream says why it ends instead of stopping.
INTERRUPTED = "export_interrupted"
# The formats of many matches: the documents, or a table (its columns and its rows of one match).
TABLES: Final = {
    "csv": (MATCH_COLUMNS, match_rows),
    "events-csv": (EVENT_COLUMNS, event_rows),
    "parquet": (MATCH_COLUMNS, match_rows),
}
FORMATS: Final = ("ndjson", *TABLES)


class ExportService:
    """Replays, exports and verification reports, over one event store."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.access = Access(store)

    async def replay(self, match_id: str) -> Replay:
        """A finished match event by event, with the whole state after each."""
        row = await self._finished(match_id, "its replay shows every hand and the deck order")
        events = await self.store.load(row.match_id)
        seed = await self._seed(row.match_id)
        return full_replay(rules_of(row), row.match_id, seed, events)

    async def past_view(
        self, match_id: str, version: int, seat: int | None, token: str | None
    ) -> schemas.MatchView:
        """The match at a version as a seat (or the spectator) saw it then."""
        row = await self._row(match_id)
        game = rules_of(row)
        _check_range(row, version, seat)
        if seat is not None and row.status != "finished":
            await self.access.own_seat(row.match_id, token, seat)
        elif token is not None:
            await self.access.viewer(row.match_id, token)  # 401 for a token not of this match
        events = await self.store.load(row.match_id, upto=version)
        return seat_view(row, game, events, seat)

    async def export(self, match_id: str) -> bytes:
        """The export document of a finished match, as JSON bytes."""
        row = await self._finished(match_id, "its export carries the server seed")
        events = await self.store.load(row.match_id)
        seed = await self._seed(row.match_id)
        return encode_export(document(FinishedMatch(row=row, server_seed=seed, events=events)))

    async def verification(self, match_id: str) -> Report:
        """The verifier's report: every check once finished, the hash chain alone before."""
        row = await self._row(match_id)
        events = await self.store.load(row.match_id)
        if row.status != "finished":
            return verify_chain(
                match_id=row.match_id, game=row.game, rules_version=row.rules_version, events=events
            )
        seed = await self._seed(row.match_id)
        return verify(document(FinishedMatch(row=row, server_seed=seed, events=events)))

    async def count(self, filters: ExportFilter) -> int:
        """How many finished matches an export with these filters holds."""
        return int(await self.store.count_finished(filters))

    def stream(self, filters: ExportFilter, format: str) -> AsyncIterator[bytes]:
        """The export of many finished matches, in chunks: NDJSON documents or CSV rows."""
        lines = export_lines(self.store, filters, format)
        return chunked(guarded(lines, "GET /exports/matches", format))

    async def whole(self, filters: ExportFilter, format: str) -> bytes:
        """The export as one body, read before anything is answered (Parquet: its footer
        indexes the whole file, so a failure is answered as an error, not cut short)."""
        return b"".join([part async for part in export_lines(self.store, filters, format)])

    async def _row(self, match_id: str) -> MatchRow:
        """The match's row; 404 when there is none."""
        row = await self.store.get_match(match_id) if match_uuid(match_id) else None
        if row is None:
            raise not_found(match_id)
        return row

    async def _seed(self, match_id: str) -> bytes:
        """The server seed of a match whose row was just read; 404 if it has gone since."""
        seed = await self.store.server_seed(match_id)
        if seed is None:
            raise not_found(match_id)
        return seed

    async def _finished(self, match_id: str, why: str) -> MatchRow:
        """The row of a finished match; 409 while it is still in the lobby or in play."""
        row = await self._row(match_id)
        if row.status != "finished":
            raise ServiceError(
                409,
                f"match {row.match_id} is not finished (it is {row.status}); "
                f"{why}, so it is only available once the match is over",
            )
        return row


def _check_range(row: MatchRow, version: int, seat: int | None) -> None:
    """404 for a version or a seat the match does not have."""
    if not 1 <= version <= row.version:
        raise ServiceError(
            404,
            f"match {row.match_id} has versions 1 to {row.version}; there is no version {version}",
        )
    if seat is not None and not 0 <= seat < row.seats:
        raise ServiceError(
            404, f"match {row.match_id} has seats 0 to {row.seats - 1}; there is no seat {seat}"
        )


def seat_view(row: MatchRow, game: Game, events: list[Any], seat: int | None) -> schemas.MatchView:
    """The view served after these events (a turn clock's deadline counted from the last one);
    at the instant play began, the table as it stood before the deal."""
    return seat_views(row, game, events, [seat])[0]


def seat_views(
    row: MatchRow, game: Game, events: list[Any], seats: list[int | None]
) -> list[schemas.MatchView]:
    """``seat_view`` for several seats, the events folded once for all of them."""
    version, state, since = len(events), state_at(game, events), events[-1].recorded_at
    if isinstance(state, match.Table) and not match.dealt(game, state):
        before = Loaded(row=row, game=game, state=state_at(game, events[:-1]), version=version)
        return [msgspec.structs.replace(views.match_view(before, seat, last_event_at=since),
                                        status="playing") for seat in seats]
    times = kept_times(state, {}, ((e.version, e.recorded_at) for e in events))
    loaded = Loaded(row=row, game=game, state=state, version=version, times=times)
    return [views.match_view(loaded, seat, last_event_at=since) for seat in seats]


def document(finished: FinishedMatch) -> MatchExport:
    """The export document of a finished match as the store holds it."""
    row = finished.row
    return build_export(
        match_id=row.match_id,
        created_at=row.created_at,
        finished_at=row.finished_at,
        server_seed=finished.server_seed,
        summary=row.summary,
        events=finished.events,
    )


async def export_lines(
    store: EventStore,
    filters: ExportFilter,
    format: str,
    on_match: Callable[[], None] | None = None,
) -> AsyncIterator[bytes]:
    """One NDJSON line per finished match; or a CSV header then each match's rows (a row per
    seat, or per event); or, once every match is read, one Parquet file of a row per seat."""
    if format == "parquet":
        rows: list[tuple[Any, ...]] = []
    elif format in TABLES:
        yield _csv([list(TABLES[format][0])])
    async for finished in store.finished_matches(filters, events=True):
        exported = document(finished)
        if format == "parquet":
            rows += match_rows(exported)
        elif format in TABLES:
            yield _csv([[_cell(value) for value in row] for row in TABLES[format][1](exported)])
        else:
            yield encode_export(exported) + b"\n"
        if on_match is not None:
            on_match()
    if format == "parquet":
        yield parquet(rows)


def _cell(value: Any) -> Any:
    """A table's value as a CSV cell: times in RFC 3339, a flag as 1 or 0, None as empty."""
    if isinstance(value, datetime):
        return value.isoformat()
    return int(value) if isinstance(value, bool) else value


def _csv(rows: list[list[Any]]) -> bytes:
    """Rows as CSV text (RFC 4180 line endings), UTF-8; formula-like text neutralised."""
    return csv_text(rows).encode()


def parquet(rows: list[tuple[Any, ...]]) -> bytes:
    """A row per seat (MATCH_KINDS) as a Parquet file, its columns typed; 501 when polars,
    the optional `parquet` extra, is not installed."""
    try:
        import polars as pl
    except ImportError:
        raise ServiceError(501, "this server cannot write Parquet: polars is not installed "
                                "(pip install 'hearthlog[parquet]'); ask for format=csv") from None
    types: dict[str, pl.DataType | type[pl.DataType]] = {
        "text": pl.String, "integer": pl.Int64, "time": pl.Datetime("us", "UTC"),
        "flag": pl.Boolean, "seconds": pl.Float64}
    schema = {column: types[kind] for column, kind in MATCH_KINDS.items()}
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    out = BytesIO()
    frame.write_parquet(out)
    return out.getvalue()


async def guarded(lines: AsyncIterator[bytes], what: str, format: str = "ndjson",
                  ) -> AsyncIterator[bytes]:
    """The lines; if reading them fails once the answer has begun, the failure is logged with
    its cause (the database's message) and one last line says the stream was cut short:
    ``{"error": "export_interrupted", "detail": ...}`` (CSV: ``#error,export_interrupted,...``)."""
    sent = 0
    try:
        async for line in lines:
            yield line
            sent += 1
    except Exception as error:
        outage = unavailable(error)
        log.error("%s stopped after %d lines: %s: %s", what, sent, type(error).__name__,
                  error, exc_info=None if outage or _from_database(error) else error)
        why = ("the database became unavailable" if outage
               else "the server could not read the rest (it has been logged)")
        detail = f"the stream was cut short after {sent} lines: {why}; ask again"
        if format in TABLES:
            yield _csv([["#error", INTERRUPTED, detail]])
        else:
            yield msgspec.json.encode({"error": INTERRUPTED, "detail": detail}) + b"\n"


def _from_database(error: Exception) -> bool:
    """Whether the database refused the query (its message says why; no traceback needed)."""
    return type(error).__module__.startswith("asyncpg")


async def chunked(parts: AsyncIterator[bytes], size: int = CHUNK) -> AsyncIterator[bytes]:
    """The parts joined into chunks of about ``size`` bytes, so the socket sees few writes."""
    buffer = bytearray()
    async for part in parts:
        buffer += part
        if len(buffer) >= size:
            yield bytes(buffer)
            buffer.clear()
    if buffer:
        yield bytes(buffer)


def utc(moment: datetime | None) -> datetime | None:
    """A filter time as an aware UTC time (a time without a zone is taken as UTC)."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
