"""The play queue's request and answer bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from service.schemas import Body

SeatCount = Annotated[int, Meta(ge=1, le=64, examples=[2])]


class SeatRange(Body):
    """Any table size from ``min`` to ``max`` seats (the largest the waiting players fill)."""

    min: SeatCount
    max: SeatCount


class JoinQueue(Body):
    """Ask to play: a game, a table size or range, rated or casual, its options, and whether
    server bots may fill the table after a long wait."""

    game: Annotated[str, Meta(max_length=64, examples=["wick-and-ember"])]
    seats: SeatCount | SeatRange
    rated: bool = False
    options: dict[str, Any] = {}
    bots: Annotated[bool, Meta(description="After a long wait (docs/matchmaking.md), sit with "
                                           "server bots rather than keep waiting.")] = False


class QueueStatus(msgspec.Struct, kw_only=True):
    """Where the player is: waiting (since when, within what rating window), forming (a table
    was formed; its match is being set up) or seated (the match and seat; the player's own
    token acts there)."""

    status: Literal["waiting", "forming", "seated"]
    game: str
    seats: SeatRange
    rated: bool
    options: dict[str, Any]
    bots: bool
    waiting_since: datetime
    window: Annotated[float, Meta(description="How far apart in rating (mu) the players at its "
                                              "table may be now; it widens with the wait")]
    match_id: str | None = None
    seat: int | None = None
    seated_at: datetime | None = None


class QueueTicket(msgspec.Struct, kw_only=True):
    """A short-lived ticket for `GET /queue/stream?ticket=...` (EventSource sends no header)."""

    ticket: str
    expires_at: datetime
