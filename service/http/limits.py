"""What one client, and one server process, may hold or ask for (docs/limits.md).

Every limit has a default fit for a public server and an environment variable to raise it. A
client is its address (the peer's, or the one a trusted proxy names: HEARTHLOG_TRUSTED_PROXIES),
or, for a request with a registered app's X-Api-Key, that app, counted under its own quotas.
Beyond a per-client or per-match limit the answer is 429, beyond a per-process one 503, each with
Retry-After and a message naming the limit and its variable; never a hang. Every answer says
where its client stands in the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers).
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import NamedTuple

import msgspec
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.apps import KEY_HEADER, App, unknown_key
from service.errors import ServiceError
from service.sources import Clock, wall_clock
from service.store.provisioning import unavailable


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
    """Fixed one-window counters per client: at most ``limit`` events per ``seconds`` (a client
    may bring its own limit: an app's quota)."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.counts: Counter[str] = Counter()
        self.ends = 0.0

    def take(self, client: str, now: float, limit: int | None = None) -> float | None:
        """Count one event of the client: None if allowed, else seconds until the window ends."""
        if now >= self.ends:
            self.counts.clear()
            self.ends = now + self.seconds
        if self.counts[client] >= (limit or self.limit):
            return self.ends - now
        self.counts[client] += 1
        return None

    def field(self, name: str, client: str, now: float, limit: int) -> str:
        """The client's place in this window as a RateLimit item: what remains, and the
        seconds until the window ends (a whole window when none is running)."""
        if now >= self.ends:
            return f'"{name}";r={limit};t={math.ceil(self.seconds)}'
        left = max(0, limit - self.counts.get(client, 0))
        return f'"{name}";r={left};t={max(0, math.ceil(self.ends - now))}'


class Client(NamedTuple):
    """Who a request is counted as: its address, or the app whose key it carries, with the
    quotas that apply."""

    key: str  # the counters' key: the address, or "app:" and the app's id
    requests_per_minute: int
    matches_per_hour: int
    named: str  # in a refusal: "your address" or "your app"
    app: bool = False


Identify = Callable[[str], Awaitable[App | None]]  # service.apps.AppService.identify


class Refusal(Exception):
    """A request refused by a client limit: the error, and the client's RateLimit fields."""

    def __init__(self, error: ServiceError, fields: list[tuple[bytes, bytes]]) -> None:
        super().__init__(error.message)
        self.error, self.fields = error, fields


class ClientLimits:
    """429 for a client over its requests per minute, its matches created per hour, or its
    requests in flight at once (each holds a connection: a stalled upload, a stream, a slow
    reader), answered with ``Connection: close`` so the refused connection is freed at once.
    A request with a registered app's key is counted under that app's quotas (its requests in
    flight stay its address's: they hold connections); an unknown key is 401 and counted
    under the address. Every answer carries the RateLimit fields of its client.

    It wraps the whole application (service.http.front), so requests the router refuses count too.
    ``apps`` tells which app a key is; None while the app has no database. The windows run
    by ``clock`` (service.sources; a test's own).
    """

    def __init__(self, app: ASGIApp, limits: Limits,
                 apps: Callable[[], Identify | None] = lambda: None,
                 clock: Clock = wall_clock) -> None:
        self.app, self.apps, self.clock = app, apps, clock
        self.requests = Window(limits.requests_per_minute, 60)
        self.creations = Window(limits.matches_per_hour, 3600)
        self.per_client = limits.connections_per_client
        self.held: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count the request against its client's windows, then serve it or refuse it (the
        limits as a wrapper of their own; the server's front calls ``admit`` itself)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            address, fields = await self.admit(scope)
        except Refusal as refusal:
            await answer(send, refusal.error, refusal.fields)
            return

        async def with_fields(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *fields]
            await send(message)

        try:
            await self.app(scope, receive, with_fields)
        finally:
            self.release(address)

    async def admit(self, scope: Scope) -> tuple[str, list[tuple[bytes, bytes]]]:
        """Count an HTTP request against its client's windows and hold its place in flight:
        its address (for ``release``) and its RateLimit fields; Refusal past a limit."""
        address = client_of(scope)
        client = self.by_address(address)
        try:
            key = api_key(scope)
            found = await self.identify(key) if key is not None else None
            if found is not None:
                client = Client(f"app:{found.app_id}", found.requests_per_minute,
                                found.matches_per_hour, "your app", app=True)
            self.count(scope, client)
            if key is not None and found is None:
                raise ServiceError(401, unknown_key())
            self.hold(address)
        except ServiceError as error:
            raise Refusal(error, self.fields(client)) from None
        return address, self.fields(client)

    def release(self, address: str) -> None:
        """The request admitted from ``address`` is over."""
        self.held[address] -= 1
        if self.held[address] <= 0:
            del self.held[address]

    def by_address(self, address: str) -> Client:
        """An anonymous client: its address, under the server's per-client limits."""
        return Client(address, self.requests.limit, self.creations.limit, "your address")

    async def identify(self, key: str) -> App | None:
        """The app of a key, None for an unknown one (or with no database to ask); 503 while
        the database is away (the key is not in this process's cache)."""
        identify = self.apps()
        if identify is None:
            return None
        try:
            return await identify(key)
        except Exception as error:
            if not unavailable(error):
                raise
            raise ServiceError(503, "the database is unavailable, so the X-Api-Key cannot be "
                               "checked; try again shortly", retry_after=1) from None

    def count(self, scope: Scope, client: Client) -> None:
        """Take one request (and one creation) from the client's windows; 429 past a limit."""
        now = self.clock().timestamp()
        if scope["path"] != "/health":
            refuse(self.requests.take(client.key, now, client.requests_per_minute),
                   "requests_per_minute",
                   f"more than {client.requests_per_minute} requests a minute from "
                   f"{client.named}", client.app)
        if scope.get("method") == "POST" and scope["path"].rstrip("/") == "/matches":
            refuse(self.creations.take(client.key, now, client.matches_per_hour),
                   "matches_per_hour",
                   f"more than {client.matches_per_hour} matches created an hour from "
                   f"{client.named}", client.app)

    def fields(self, client: Client) -> list[tuple[bytes, bytes]]:
        """The RateLimit-Policy and RateLimit fields of the client, as it stands now."""
        now = self.clock().timestamp()
        policy = (f'"requests";q={client.requests_per_minute};w=60, '
                  f'"matches";q={client.matches_per_hour};w=3600')
        state = (f"{self.requests.field('requests', client.key, now, client.requests_per_minute)}"
                 f", {self.creations.field('matches', client.key, now, client.matches_per_hour)}")
        return [(b"ratelimit-policy", policy.encode()), (b"ratelimit", state.encode())]

    def hold(self, client: str) -> None:
        """Count one more request in flight for the client; 429 past its connections."""
        if self.held[client] >= self.per_client:
            raise ServiceError(429, f"your address already has {self.per_client} requests in "
                               "flight, the limit per client "
                               f"({variable('connections_per_client')}); finish some first",
                               retry_after=1, limit="connections_per_client")
        self.held[client] += 1


def api_key(scope: Scope) -> str | None:
    """The request's X-Api-Key, None without one."""
    for name, value in scope.get("headers") or ():
        if name == KEY_HEADER_BYTES:
            return str(value.decode("latin-1").strip())
    return None


KEY_HEADER_BYTES = KEY_HEADER.encode()


async def answer(send: Send, error: ServiceError,
                 fields: list[tuple[bytes, bytes]] | None = None) -> None:
    """Send a refusal straight from ASGI: the JSON body every error has, Retry-After, and the
    RateLimit ``fields`` when given."""
    body = msgspec.json.encode(
        {"status_code": error.status, "detail": error.message, "extra": error.extra}
    )
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body)),
               (b"connection", b"close"), *(fields or ())]  # its body, if any, is never read
    if "retry_after" in error.extra:
        headers.append((b"retry-after", str(error.extra["retry_after"]).encode()))
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def refuse(wait: float | None, field: str, what: str, app: bool = False) -> None:
    """Raise the 429 of a per-client limit (an app's own quota when ``app``) when ``wait``
    says it is reached."""
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        source = "the app's quota, set when it was registered" if app else \
            f"the limit, {variable(field)}"
        raise ServiceError(429, f"too many requests: {what} ({source}); "
                           f"try again in {seconds} s", retry_after=seconds, limit=field)


class StreamSlots:
    """Open streams (a match's, the play queue's), counted per process, per client and, for a
    match's, per match."""

    def __init__(self, limits: Limits) -> None:
        self.total, self.per_client = limits.streams, limits.streams_per_client
        self.per_match = limits.streams_per_match
        self.open: Counter[str] = Counter()
        self.followers: Counter[str] = Counter()

    def take(self, client: str, match: str | None) -> None:
        """Hold a slot for a new stream (of ``match``, None: no match's), or refuse it: 429
        for the client or the match, 503 for the process."""
        if self.open[client] >= self.per_client:
            raise ServiceError(429, f"your address already follows {self.per_client} streams, "
                               f"the limit per client ({variable('streams_per_client')}); close "
                               "one first", retry_after=5, limit="streams_per_client")
        if match is not None and self.followers[match] >= self.per_match:
            raise ServiceError(429, f"this match already has {self.per_match} followers on this "
                               f"server, the limit per match ({variable('streams_per_match')}); "
                               "try again shortly", retry_after=5, limit="streams_per_match")
        if self.open.total() >= self.total:
            raise ServiceError(503, f"this server follows {self.total} streams, its limit "
                               f"({variable('streams')}); try again shortly", retry_after=5,
                               limit="streams")
        self.open[client] += 1
        if match is not None:
            self.followers[match] += 1

    def give_back(self, client: str, match: str | None) -> None:
        """Free a slot taken by ``take``."""
        for counter, key in ((self.open, client), (self.followers, match)):
            if key is None:
                continue
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
