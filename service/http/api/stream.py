"""The match stream: Server-Sent Events with each change and the caller's view (docs/live.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from litestar import Controller, get, post
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.types import ASGIApp, Receive, Scope, Send

from service.http.api.common import OPTIONAL_TOKEN, TOKEN, AnyRequest, caller, errors, provide_token
from service.http.bootstrap import services
from service.http.limits import client_of
from service.live.feed import Served
from service.live.hub import HEARTBEAT, open_follow
from service.schemas import StreamTicket, StreamUpdate
from service.store.lru import Lru

LastEventId = Annotated[
    int | None,
    HeaderParameter(
        name="Last-Event-ID",
        ge=0,
        required=False,
        description="The id of the last message received: resume right after it",
    ),
]
Ticket = Annotated[
    str | None,
    QueryParameter(
        max_length=100,
        required=False,
        description="A stream ticket (POST .../stream-ticket) instead of the Authorization "
        "header, for EventSource; never logged",
    ),
]
STREAM = ResponseSpec(
    data_container=StreamUpdate,
    media_type="text/event-stream",
    generate_examples=False,
    description="Server-Sent Events: `id` is the match version, `event: update`, `data` one "
    "StreamUpdate (components/schemas/StreamUpdate) as JSON; comment lines are heartbeats. The "
    "stream stays open once the match is over: close it on a view whose status is finished "
    "(docs/api.md, Clients, shows how to follow it from Python and TypeScript)",
)


class StreamLimit(ASGIMiddleware):
    """Holds a stream slot for as long as the stream route answers (route middleware): a
    match's stream counts for its match too, the queue's only for its client."""

    scopes = (ScopeType.HTTP,)

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        """Take a slot (or refuse), serve the stream, give the slot back however it ends."""
        slots = services(scope["litestar_app"]).stream_slots
        client, match = client_of(scope), scope.get("path_params", {}).get("match_id")
        slots.take(client, match)
        try:
            await next_app(scope, receive, send)
        finally:
            slots.give_back(client, match)


class StreamController(Controller):
    """GET /matches/{id}/stream: the caller's live view of a match; its tickets."""

    path = "/matches"
    tags = ["matches"]
    security = OPTIONAL_TOKEN  # a seat's stream with its token, the spectator's without

    @post(
        "/{match_id:str}/stream-ticket",
        operation_id="streamTicket",
        summary="A short-lived ticket to follow your seat's stream without a header",
        responses=errors(400, 401, 403, 404),
        security=TOKEN,
        status_code=201,
    )
    async def ticket(self, request: AnyRequest, match_id: FromPath[str]) -> StreamTicket:
        """For EventSource, which cannot send a header: `GET .../stream?ticket=` follows the
        seat's stream, opened before `expires_at` (60 s); a stream already open is not cut."""
        service, token = caller(request)
        return await service.stream_ticket(match_id, token)

    @get(
        "/{match_id:str}/stream",
        operation_id="streamMatch",
        summary="Follow a match live (Server-Sent Events)",
        responses={200: STREAM, **errors(400, 401, 404, 429)},
        middleware=[StreamLimit()],
    )
    async def stream(
        self,
        request: AnyRequest,
        match_id: FromPath[str],
        last_event_id: LastEventId = None,
        ticket: Ticket = None,
    ) -> ServerSentEvent:
        """Your new log lines, view and legal actions after every change (by a token or a stream
        ticket); the spectator's without either."""
        made, token = services(request.app), provide_token(request)
        updates = await open_follow(made.matches, made.hub, match_id, token, last_event_id or 0,
                                    made.live.heartbeat, ticket)
        return ServerSentEvent(messages(updates))


async def messages(updates: AsyncIterator[object]) -> AsyncIterator[ServerSentEventMessage]:
    """Each update as an SSE message with the version as its id, encoded once for every follower
    who sees the same update (the feed shares it); heartbeats as comments."""
    async for update in updates:
        if update is HEARTBEAT or not isinstance(update, Served):
            yield BEAT
            continue
        kept = FRAMES.get(id(update))
        if kept is None or kept[0] is not update:
            kept = (update, Encoded(frame(update), update.version))
            FRAMES.put(id(update), kept)
        yield kept[1]


def frame(update: Served) -> bytes:
    """The update's SSE message as litestar's ServerSentEventMessage writes it, without its line
    splitting: the data is compact JSON, one line (JSON writes a line break in a string as an
    escape), so each seat's frame costs one join rather than a regular expression over it."""
    return b"id: %d\r\nevent: update\r\ndata: %s\r\n\r\n" % (update.version,
                                                                    update.data.encode())


class Encoded(ServerSentEventMessage):
    """A message already encoded: sent as it is (its id kept for whoever reads it)."""

    def __init__(self, frame: bytes, id: int | None = None) -> None:
        super().__init__(id=id, data=None)
        self.frame = frame

    def encode(self) -> bytes:
        """The bytes encoded once."""
        return self.frame


BEAT = Encoded(ServerSentEventMessage(comment="heartbeat", data=None).encode())
FRAMES = Lru(1024)  # by the update's id, with the update kept so that its id is not reused
