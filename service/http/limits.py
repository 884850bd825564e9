"""What one client, and one server process, may hold or ask for (docs/limits.md).

Every limit has a default fit for a public server and an environment variable to raise it. A
client is its address (the peer's, or the one a trusted proxy names: HEARTHLOG_TRUSTED_PROXIES).
Beyond a per-client or per-match limit the answer is 429, beyond a per-process one 503, each with
Retry-After and a message naming the limit and its variable; never a hang.
"""

from __future__ import annotations

import math
import os
import time
from collections import Counter

import msgspec
from litestar.types import ASGIApp, Receive, Scope, Send

from service.errors import ServiceError


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """The limits in force, from the environment (HEARTHLOG_<FIELD NAME IN CAPITALS>)."""

    connections: int = 8192  # open connections per process (granian's backpressure)
    connections_per_client: int = 256  # requests one address has in flight at once
    header_seconds: float = 10.0  # to send the request line and headers
    body_seconds: float = 10.0  # to send the whole body, from the request's start
    send_seconds: float = 30.0  # an answer's client may read nothing for this long, then cut
    streams: int = 4096  # open match streams per process
    streams_per_client: int = 32
    streams_per_match: int = 2048  # followers of one match, per process
    requests_per_minute: int = 1200  # per client, every route but /health
    matches_per_hour: int = 60  # matches created per client
    lobby_hours: float = 24.0  # a lobby not started within this time expires

    @classmethod
    def from_env(cls) -> Limits:
        """Each field from HEARTHLOG_<FIELD> when it is set, else its default."""
        given = {}
        for field in cls.__struct_fields__:
            value = os.environ.get(f"HEARTHLOG_{field.upper()}")
            if value:
                given[field] = type(getattr(cls(), field))(value)
        return cls(**given)


def variable(field: str) -> str:
    """The environment variable that sets a limit."""
    return f"HEARTHLOG_{field.upper()}"


def client_of(scope: Scope) -> str:
    """The client's address, as the server (or a trusted proxy) saw it."""
    client = scope.get("client")
    return client[0] if client else "unknown"


class Window:
    """Fixed one-window counters per client: at most ``limit`` events per ``seconds``."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.counts: Counter[str] = Counter()
        self.ends = 0.0

    def take(self, client: str, now: float) -> float | None:
        """Count one event of the client: None if allowed, else seconds until the window ends."""
        if now >= self.ends:
            self.counts.clear()
            self.ends = now + self.seconds
        if self.counts[client] >= self.limit:
            return self.ends - now
        self.counts[client] += 1
        return None


class ClientLimits:
    """429 for a client over its requests per minute, its matches created per hour, or its
    requests in flight at once (each holds a connection: a stalled upload, a stream, a slow
    reader), answered with ``Connection: close`` so the refused connection is freed at once.

    It wraps the whole application (service.http.front), so requests the router refuses count too.
    """

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.requests = Window(limits.requests_per_minute, 60)
        self.creations = Window(limits.matches_per_hour, 3600)
        self.per_client = limits.connections_per_client
        self.held: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count the request against its client's windows, then serve it or refuse it."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        try:
            self.count(scope)
            self.hold(client)
        except ServiceError as error:
            await answer(send, error)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.held[client] -= 1
            if self.held[client] <= 0:
                del self.held[client]

    def count(self, scope: Scope) -> None:
        """Take one request (and one creation) from the client's windows; 429 past a limit."""
        client, now = client_of(scope), time.monotonic()
        if scope["path"] != "/health":
            refuse(self.requests.take(client, now), "requests_per_minute",
                   f"more than {self.requests.limit} requests a minute from your address")
        if scope.get("method") == "POST" and scope["path"].rstrip("/") == "/matches":
            refuse(self.creations.take(client, now), "matches_per_hour",
                   f"more than {self.creations.limit} matches created an hour from your address")

    def hold(self, client: str) -> None:
        """Count one more request in flight for the client; 429 past its connections."""
        if self.held[client] >= self.per_client:
            raise ServiceError(429, f"your address already has {self.per_client} requests in "
                               "flight, the limit per client "
                               f"({variable('connections_per_client')}); finish some first",
                               retry_after=1, limit="connections_per_client")
        self.held[client] += 1


async def answer(send: Send, error: ServiceError) -> None:
    """Send a refusal straight from ASGI: the JSON body every error has, and Retry-After."""
    body = msgspec.json.encode(
        {"status_code": error.status, "detail": error.message, "extra": error.extra}
    )
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body)),
               (b"connection", b"close")]  # its body, if any, is never read
    if "retry_after" in error.extra:
        headers.append((b"retry-after", str(error.extra["retry_after"]).encode()))
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def refuse(wait: float | None, field: str, what: str) -> None:
    """Raise the 429 of a per-client limit when ``wait`` says it is reached."""
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise ServiceError(429, f"too many requests: {what} (the limit, {variable(field)}); "
                           f"try again in {seconds} s", retry_after=seconds, limit=field)


class StreamSlots:
    """Open match streams, counted per process, per client and per match."""

    def __init__(self, limits: Limits) -> None:
        self.total, self.per_client = limits.streams, limits.streams_per_client
        self.per_match = limits.streams_per_match
        self.open: Counter[str] = Counter()
        self.followers: Counter[str] = Counter()

    def take(self, client: str, match: str) -> None:
        """Hold a slot for a new stream, or refuse it: 429 for the client or the match, 503
        for the process."""
        if self.open[client] >= self.per_client:
            raise ServiceError(429, f"your address already follows {self.per_client} streams, "
                               f"the limit per client ({variable('streams_per_client')}); close "
                               "one first", retry_after=5, limit="streams_per_client")
        if self.followers[match] >= self.per_match:
            raise ServiceError(429, f"this match already has {self.per_match} followers on this "
                               f"server, the limit per match ({variable('streams_per_match')}); "
                               "try again shortly", retry_after=5, limit="streams_per_match")
        if self.open.total() >= self.total:
            raise ServiceError(503, f"this server follows {self.total} streams, its limit "
                               f"({variable('streams')}); try again shortly", retry_after=5,
                               limit="streams")
        self.open[client] += 1
        self.followers[match] += 1

    def give_back(self, client: str, match: str) -> None:
        """Free a slot taken by ``take``."""
        for counter, key in ((self.open, client), (self.followers, match)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
