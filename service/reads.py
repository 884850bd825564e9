"""Where a read that may be slightly stale is served: the standby when that cannot be wrong.

Three kinds of read, one rule each (docs/scaling.md, "Read replica"):
- ``finished``: one finished match (its replay, export, past views, verification). Served by the
  standby only when the match is finished there too (a finished match never changes, so the
  standby's copy is the whole of it); a match running or unknown there, or a standby that fails,
  is read on the primary. No lag bound is needed: the check is per match.
- ``recent``: a listing (GET /matches, and tournament standings when they come), which may be
  as old as the lag bound: the standby while it is proven within it, else the primary.
- ``bulk``: many finished matches streamed (GET /exports/matches), the read that would weigh on
  the primary's command path: the standby within the lag bound, else 503 with Retry-After.
Each routed read names the database that answered in its access-log line (``read``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from projections.replay import Replay
from projections.verify import Report
from service import schemas
from service.errors import ServiceError
from service.exports import ExportService
from service.logs import current_read
from service.store import EventStore, ExportFilter
from service.store.replica import STANDBY_FAILURES, Standby

T = TypeVar("T")


class Reads:
    """The primary's store, and a standby's when one is configured."""

    def __init__(self, primary: EventStore, standby: Standby | None = None) -> None:
        self.primary, self.standby = primary, standby

    async def finished(self, match_id: str, read: Callable[[EventStore], Awaitable[T]]) -> T:
        """``read`` on the standby if the match is finished there, else on the primary."""
        standby = self.standby
        if standby is not None and standby.up:
            try:
                row = await standby.store.get_match(match_id)
                if row is not None and row.status == "finished":
                    return await self._on(standby.store, "standby", read)
            except STANDBY_FAILURES as error:
                standby.failed(error)
        return await self._on(self.primary, "primary", read)

    async def recent(self, read: Callable[[EventStore], Awaitable[T]]) -> T:
        """``read`` on the standby while it is within the lag bound, else on the primary."""
        standby = self.standby
        if standby is not None and standby.fresh():
            try:
                return await self._on(standby.store, "standby", read)
            except STANDBY_FAILURES as error:
                standby.failed(error)
        return await self._on(self.primary, "primary", read)

    def bulk(self) -> EventStore:
        """The store for a many-match export: the standby within the lag bound; without a
        standby, the primary; 503 while a configured standby is down or too far behind."""
        standby = self.standby
        if standby is None:
            current_read.set("primary")
            return self.primary
        if not standby.fresh():
            lag = standby.lag()
            why = "is not answering" if not standby.up or lag is None else f"is {lag:.0f} s behind"
            raise ServiceError(503, f"exports of many matches are served by the read replica, "
                               f"which {why}; try again shortly", retry_after=5)
        current_read.set("standby")
        return standby.store

    async def _on(self, store: EventStore, name: str,
                  read: Callable[[EventStore], Awaitable[T]]) -> T:
        """Run ``read`` on ``store``, noting which database answered."""
        result = await read(store)
        current_read.set(name)
        return result


class RoutedExports:
    """ExportService's use cases, each routed by ``Reads`` when it is asked: one for the whole
    process (service.http.bootstrap), so it keeps nothing of one request for the next."""

    def __init__(self, reads: Reads) -> None:
        self.reads = reads

    async def replay(self, match_id: str) -> Replay:
        """A finished match event by event (ExportService.replay)."""
        return await self.reads.finished(match_id, lambda s: ExportService(s).replay(match_id))

    async def past_view(self, match_id: str, version: int, seat: int | None,
                        token: str | None) -> schemas.MatchView:
        """The match at a version: from the standby once it is finished there."""
        return await self.reads.finished(
            match_id, lambda s: ExportService(s).past_view(match_id, version, seat, token))

    async def export(self, match_id: str) -> bytes:
        """The export document of a finished match (ExportService.export)."""
        return await self.reads.finished(match_id, lambda s: ExportService(s).export(match_id))

    async def verification(self, match_id: str) -> Report:
        """The verifier's report; a running match's is always the primary's."""
        return await self.reads.finished(
            match_id, lambda s: ExportService(s).verification(match_id))

    async def count(self, filters: ExportFilter) -> int:
        """How many finished matches the export holds, on the store the stream will read (the
        standby while it is within the lag bound, else a 503; without one, the primary)."""
        return await ExportService(self.reads.bulk()).count(filters)

    def stream(self, filters: ExportFilter, format: str) -> AsyncIterator[bytes]:
        """The export of many finished matches, from the store ``count`` read: asked again, it
        is the same, or a 503 if the standby fell behind in between."""
        return ExportService(self.reads.bulk()).stream(filters, format)

    async def whole(self, filters: ExportFilter, format: str) -> bytes:
        """The export of many finished matches as one body (Parquet), from the store ``count``
        read."""
        return await ExportService(self.reads.bulk()).whole(filters, format)
