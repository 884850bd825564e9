"""What one client may ask of the tournament routes in an hour (docs/tournaments.md).

A tournament makes matches by the table, so its routes have limits of their own beside the
matches a client may create (HEARTHLOG_MATCHES_PER_HOUR): tournaments created, entrants
registered (bots and persons alike) and tables opened by the rounds it starts, each per client
per hour, each set by its environment variable. Past one the answer is 429 with Retry-After,
naming the limit; nothing is written. A round's tables count once it is made, so the round that
passes the limit is made and the next one is refused.
"""

from __future__ import annotations

import math
import os
import time
from collections import Counter

from service.errors import ServiceError
from service.http.api.common import AnyRequest
from service.http.limits import client_of

HOUR = 3600.0
DEFAULTS = {"tournaments_per_hour": 20, "entrants_per_hour": 512, "tables_per_hour": 1024}


class HourWindow:
    """One fixed hour's counts per client, against one limit."""

    def __init__(self, field: str) -> None:
        self.field = field
        self.limit = int(os.environ.get(variable(field)) or DEFAULTS[field])
        self.counts: Counter[str] = Counter()
        self.ends = 0.0

    def check(self, request: AnyRequest, what: str) -> str:
        """The client, or 429 when it has reached the limit this hour."""
        now, client = time.monotonic(), client_of(request.scope)
        if now >= self.ends:
            self.counts.clear()
            self.ends = now + HOUR
        if self.counts[client] >= self.limit:
            seconds = max(1, math.ceil(self.ends - now))
            raise ServiceError(429, f"too many requests: more than {self.limit} {what} an hour "
                               f"from your address (the limit, {variable(self.field)}); try "
                               f"again in {seconds} s", retry_after=seconds, limit=self.field)
        return client

    def add(self, client: str, count: int = 1) -> None:
        """Count ``count`` more for the client."""
        self.counts[client] += count


def variable(field: str) -> str:
    """The environment variable that sets a limit."""
    return f"HEARTHLOG_{field.upper()}"


class TournamentLimits:
    """The three windows, one set per process."""

    def __init__(self) -> None:
        self.tournaments = HourWindow("tournaments_per_hour")
        self.entrants = HourWindow("entrants_per_hour")
        self.tables = HourWindow("tables_per_hour")


LIMITS = TournamentLimits()
