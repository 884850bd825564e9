"""Client apps: registered by an operator, each with an API key (X-Api-Key) and its own quotas.

A request carrying a valid key is counted under its app's quotas instead of its address's
(service.http.limits); an unknown key is refused (401) and changes nothing. The front asks
``identify`` on every request with a key, so the answer is cached per process by the key's
hash, bounded, for a few seconds: a new or changed app is seen within ``CACHE_SECONDS``
(docs/limits.md, "Client apps").
"""

from __future__ import annotations

import hmac
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Annotated

import msgspec
from msgspec import Meta

from service import auth
from service.errors import ServiceError, unauthorized
from service.names import likeness
from service.schemas import Body, Name
from service.store.apps import AppNameTaken, AppRow, AppStore, NewApp
from service.store.lru import Lru

OPERATOR_TOKEN = "HEARTHLOG_OPERATOR_TOKEN"
KEY_HEADER = "x-api-key"
APP_REQUESTS_PER_MINUTE = 12_000  # ten times an address's default (service.http.limits)
APP_MATCHES_PER_HOUR = 600
CACHE_SECONDS = 5.0
CACHE_ENTRIES = 10_000

Quota = Annotated[int, Meta(ge=1, le=10_000_000)]


class NewAppBody(Body):
    """An app to register: its name and, optionally, its quotas."""

    name: Name
    requests_per_minute: Quota = APP_REQUESTS_PER_MINUTE
    matches_per_hour: Quota = APP_MATCHES_PER_HOUR


class AppInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A registered app and its quotas (its key is shown only when it is made)."""

    app_id: str
    name: str
    requests_per_minute: int
    matches_per_hour: int
    created_at: datetime


class AppCreated(AppInfo, frozen=True, kw_only=True):
    """A new app, with its API key: shown once, send it as X-Api-Key."""

    key: str


class AppList(msgspec.Struct, frozen=True, kw_only=True):
    """Every registered app, oldest first."""

    apps: list[AppInfo]


class App(msgspec.Struct, frozen=True):
    """What the front needs of an app: who it is and its quotas."""

    app_id: str
    requests_per_minute: int
    matches_per_hour: int


def info(row: AppRow) -> AppInfo:
    """The app's row as answered."""
    return AppInfo(app_id=row.app_id, name=row.name, requests_per_minute=row.requests_per_minute,
                   matches_per_hour=row.matches_per_hour, created_at=row.created_at)


class AppService:
    """Register and list apps (the operator's), and tell which app a key is (the front's).

    ``operator_token`` is HEARTHLOG_OPERATOR_TOKEN (None: the operator's routes refuse);
    ``now`` is the monotonic clock the key cache expires by."""

    def __init__(self, store: AppStore, operator_token: str | None, *,
                 now: Callable[[], float] = time.monotonic,
                 seconds: float = CACHE_SECONDS) -> None:
        self.store, self.now, self.seconds = store, now, seconds
        self._operator = auth.token_hash(operator_token) if operator_token else None
        self._known = Lru(CACHE_ENTRIES)  # key hash -> (App | None, when it expires)

    def operator(self, token: str | None) -> None:
        """Check the operator's token: 403 when the server has none, 401 without it."""
        if self._operator is None:
            raise ServiceError(403, f"registering apps is off on this server: start it with "
                               f"{OPERATOR_TOKEN} set, and send it as 'Authorization: Bearer "
                               f"<{OPERATOR_TOKEN}>'")
        if token is None or not hmac.compare_digest(auth.token_hash(token), self._operator):
            raise unauthorized(f"this needs the operator's token: 'Authorization: Bearer "
                               f"<{OPERATOR_TOKEN}>'")

    async def create(self, body: NewAppBody) -> AppCreated:
        """Register an app and make its key (shown once); 409 when the name is taken."""
        key = auth.new_token()
        new = NewApp(app_id=str(uuid.uuid4()), name=body.name, name_key=likeness(body.name),
                     key_hash=auth.token_hash(key),
                     requests_per_minute=body.requests_per_minute,
                     matches_per_hour=body.matches_per_hour)
        try:
            row = await self.store.add(new)
        except AppNameTaken:
            raise ServiceError(409, f"an app named {body.name!r} (or a name that looks the "
                               "same) is registered already; choose another name") from None
        return AppCreated(**msgspec.structs.asdict(info(row)), key=key)

    async def listed(self) -> AppList:
        """Every app (without keys)."""
        return AppList(apps=[info(row) for row in await self.store.listed()])

    async def identify(self, key: str) -> App | None:
        """The app a key belongs to, None for an unknown key; cached for ``seconds``."""
        hashed = auth.token_hash(key)
        now = self.now()
        cached = self._known.get(hashed)
        if cached is not None and cached[1] > now:
            found: App | None = cached[0]
            return found
        row = await self.store.by_key_hash(hashed)
        found = App(row.app_id, row.requests_per_minute, row.matches_per_hour) if row else None
        self._known.put(hashed, (found, now + self.seconds))
        return found

    async def authenticate(self, key: str | None) -> App | None:
        """The caller's app: None without a key, 401 naming the header for an unknown one."""
        if key is None:
            return None
        found = await self.identify(key)
        if found is None:
            raise unauthorized(unknown_key())
        return found


def unknown_key() -> str:
    """The refusal of a key no app has."""
    return ("the X-Api-Key is not a registered app's key: send the key 'hearthlog app add' or "
            "POST /apps gave, or no X-Api-Key at all to be counted by your address")
