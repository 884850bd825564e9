"""Exports: one finished match as a JSON document, or many streamed as NDJSON or CSV."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from litestar import Controller, Response, get
from litestar.di import NamedDependency, Provide
from litestar.openapi.spec import (
    OpenAPIFormat,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Schema,
)
from litestar.params import FromPath, FromQuery
from litestar.response import Stream

from projections.export import MatchExport
from projections.tables import EVENT_COLUMNS, MATCH_COLUMNS
from service.exports import utc
from service.http.api.common import AnyRequest, TextQuery, errors
from service.http.api.shaping import lines_media
from service.http.bootstrap import services
from service.reads import RoutedExports
from service.store import ExportFilter

Exports = NamedDependency[RoutedExports]
Format = Literal["ndjson", "csv", "events-csv", "parquet"]  # service.exports.FORMATS
MEDIA = {"ndjson": "application/x-ndjson", "csv": "text/csv",  # litestar adds the charset
         "events-csv": "text/csv", "parquet": "application/vnd.apache.parquet"}
DESCRIPTION = (
    "format=ndjson: one export document (the MatchExport schema, as GET /matches/{match_id}/export "
    "answers) per line; format=csv: a header line, then one row per seat per match "
    f"({', '.join(MATCH_COLUMNS)}); format=events-csv: a header line, then one row per event "
    f"({', '.join(EVENT_COLUMNS)}); format=parquet: the per-seat table as one Parquet file "
    "(501 when the server lacks the parquet extra). docs/export-format.md describes each column. "
    "X-Match-Count says how many matches follow."
)


@dataclass
class StreamedExports(Operation):
    """The 200 answer in each format: NDJSON and CSV as text, Parquet as binary (the document's
    shaping, service.http.api.shaping, describes the NDJSON lines and adds its text/plain)."""

    def __post_init__(self) -> None:
        """Each media type of the 200 answer and what its body is."""
        ok = self.responses["200"] if self.responses else None
        if isinstance(ok, OpenAPIResponse):
            ok.content = {media: OpenAPIMediaType(schema=Schema(
                type=OpenAPIType.STRING, content_media_type=media,
                format=OpenAPIFormat.BINARY if media == MEDIA["parquet"] else None))
                for media in dict.fromkeys(MEDIA.values())}
            ok.description = DESCRIPTION


def provide_exports(request: AnyRequest) -> RoutedExports:
    """The export use cases, each on the database service.reads routes it to."""
    return services(request.app).exports


class ExportController(Controller):
    """GET /matches/{id}/export and GET /exports/matches; finished matches only."""

    path = "/"
    tags = ["exports"]
    dependencies = {"exports": Provide(provide_exports, sync_to_thread=False)}

    @get(
        "/matches/{match_id:str}/export",
        operation_id="exportMatch",
        summary="A finished match as one verifiable JSON document",
        responses=errors(400, 404, 409),
    )
    async def export_match(
        self, exports: Exports, match_id: FromPath[str]
    ) -> Response[MatchExport]:
        """Header (seeds included) and every event with its hash; see docs/export-format.md."""
        body = await exports.export(match_id)
        # The body is the MatchExport already encoded; the route's annotation names MatchExport
        # for the OpenAPI document.
        return Response(content=body, media_type="application/json")  # type: ignore[arg-type]

    @get(
        "/exports/matches",
        operation_id="exportMatches",
        summary="Finished matches streamed as NDJSON or CSV",
        responses=errors(400),
        operation_class=StreamedExports,
    )
    async def export_matches(
        self,
        request: AnyRequest,
        exports: Exports,
        tournament: TextQuery = None,
        game: TextQuery = None,
        finished_after: FromQuery[datetime | None] = None,
        finished_before: FromQuery[datetime | None] = None,
        format: FromQuery[Format] = "ndjson",
    ) -> Stream:
        """Oldest finish first; finished_after <= finished_at < finished_before (UTC if no zone)."""
        filters = ExportFilter(
            tournament=tournament,
            game=game,
            finished_after=utc(finished_after),
            finished_before=utc(finished_before),
        )
        count = await exports.count(filters)
        body = (
            whole(await exports.whole(filters, format)) if format == "parquet"
            else exports.stream(filters, format)
        )
        return Stream(
            body,
            media_type=lines_media(request.headers.get("accept")) if format == "ndjson"
            else MEDIA[format],
            headers={"X-Match-Count": str(count)},
        )


async def whole(body: bytes) -> AsyncIterator[bytes]:
    """A body read whole, as a stream of one part."""
    yield body
