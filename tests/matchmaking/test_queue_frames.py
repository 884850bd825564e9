"""The queue stream's frames (service/http/api/queue.py, ``messages``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

from service.http.api.queue import messages
from service.matchmaking.schemas import QueueStatus, SeatRange


async def given(*updates: QueueStatus | None) -> AsyncIterator[QueueStatus | None]:
    """The updates a follower would yield."""
    for update in updates:
        yield update


async def test_a_quiet_spell_is_a_comment_alone_which_no_event_source_dispatches() -> None:
    frames = [m.encode() async for m in messages(given(None))]
    assert frames == [b": heartbeat\r\n\r\n"]


async def test_a_status_is_an_event_named_by_it_with_the_status_as_json() -> None:
    status = QueueStatus(status="seated", game="ember", seats=SeatRange(min=2, max=2),
                         rated=False, options={}, bots=False, window=2.0, match_id="m", seat=1,
                         waiting_since=datetime(2026, 12, 6, tzinfo=UTC))
    [frame] = [m.encode() async for m in messages(given(status))]
    assert frame.startswith(b"event: seated\r\ndata: {\"status\":\"seated\",")
    assert frame.endswith(b"\"seat\":1,\"seated_at\":null}\r\n\r\n")
