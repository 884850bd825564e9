"""The play queue: join, leave, poll, and the stream that says when the player is seated. Each
route decodes, calls one use case of service/matchmaking/queue.py and answers; docs/api.md
("Matchmaking") and docs/matchmaking.md walk through them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

import msgspec
from litestar import Controller, delete, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from service.http.api.common import BODY_ERRORS, TOKEN, AnyRequest, errors, provide_token, strictly
from service.http.api.stream import BEAT, StreamLimit
from service.http.bootstrap import services
from service.matchmaking.queue import QueueService
from service.matchmaking.schemas import JoinQueue, QueueStatus, QueueTicket

Ticket = Annotated[
    str | None,
    QueryParameter(max_length=200, required=False,
                   description="A queue stream ticket (POST /queue/stream-ticket) instead of the "
                   "Authorization header, for EventSource; never logged"),
]
STREAM = ResponseSpec(
    data_container=QueueStatus,
    media_type="text/event-stream",
    generate_examples=False,
    description="Server-Sent Events: `event: waiting`, `forming` or `seated`, `data` one "
    "QueueStatus (components/schemas/QueueStatus) as JSON, sent when it changes; comment lines "
    "are heartbeats. The stream ends once the player is seated (or leaves the queue)",
)


def queue_of(request: AnyRequest) -> QueueService:
    """The queue's use cases (service.http.bootstrap made them at start-up)."""
    return services(request.app).queue


class QueueController(Controller):
    """POST, GET and DELETE /queue, its stream and tickets: a player's wait for a table."""

    path = "/queue"
    tags = ["matchmaking"]
    security = TOKEN

    @post(operation_id="joinQueue", summary="Ask to play: wait for a table of your game",
          responses=errors(400, 401, 409, 422, *BODY_ERRORS), status_code=201)
    async def join(self, request: AnyRequest, data: JoinQueue) -> QueueStatus:
        """Wait in the queue (one wait per player: 409 while waiting) until the matcher seats
        you at a table of players close to your rating; the window widens with the wait."""
        body = await strictly(request, data)
        return await queue_of(request).join(provide_token(request), body)

    @get(operation_id="queueStatus", summary="Where you are: waiting, forming or seated",
         responses=errors(400, 401, 404))
    async def status(self, request: AnyRequest) -> QueueStatus:
        """Your wait (since when, the rating window now), or the match and seat you were given:
        your own player token acts there."""
        return await queue_of(request).status(provide_token(request))

    @delete(operation_id="leaveQueue", summary="Leave the queue now",
            responses=errors(400, 401, 404, 409), status_code=204)
    async def leave(self, request: AnyRequest) -> None:
        """Leave at once: no table is formed for you after this answer (409 if one already
        was, naming its match)."""
        await queue_of(request).leave(provide_token(request))

    @post("/stream-ticket", operation_id="queueStreamTicket",
          summary="A short-lived ticket to follow your wait without a header",
          responses=errors(400, 401, 404), status_code=201)
    async def ticket(self, request: AnyRequest) -> QueueTicket:
        """For EventSource, which cannot send a header: `GET /queue/stream?ticket=` follows
        your wait, opened before `expires_at` (60 s)."""
        return await queue_of(request).ticket(provide_token(request))

    @get("/stream", operation_id="streamQueue", summary="Follow your wait (Server-Sent Events)",
         responses={200: STREAM, **errors(400, 401, 404, 429)}, middleware=[StreamLimit()])
    async def stream(self, request: AnyRequest, ticket: Ticket = None) -> ServerSentEvent:
        """Your status now, then each change (by your token or a stream ticket), until seated."""
        queue = queue_of(request)
        player = await queue.follower(provide_token(request), ticket)
        return ServerSentEvent(messages(queue.follow(player)))


async def messages(updates: AsyncIterator[QueueStatus | None],
                   ) -> AsyncIterator[ServerSentEventMessage]:
    """Each status as an SSE message named by its status; a heartbeat comment for None."""
    async for status in updates:
        if status is None:
            yield BEAT
        else:
            yield ServerSentEventMessage(event=status.status,
                                         data=msgspec.json.encode(status).decode())
