"""Stream tickets: a short-lived credential a browser's EventSource can put in the stream's URL.

EventSource cannot send an Authorization header, so a seat trades its token for a ticket
(``POST /matches/{id}/stream-ticket``) and opens ``GET /matches/{id}/stream?ticket=...``.
A ticket is ``<seat>.<expiry>.<mac>``: the seat, when it expires (Unix seconds) and an
HMAC-SHA256 of the match, seat and expiry keyed by the seat token's stored hash. Nothing is
stored for it, so any server process sharing the database checks it; only the seat (who knows
its token) and the server (who keeps the hash) can make one; it lets the bearer only follow
that seat's stream, and only until it expires. It is never logged (the access log writes the
path, never the query). docs/live.md.
"""

from __future__ import annotations

import hashlib
import hmac
import re

LIFETIME = 60  # seconds a ticket may be used to open a stream (an open stream is not cut)
SHAPE = re.compile(r"([0-9]{1,3})\.([0-9]{1,12})\.([0-9a-f]{64})", re.ASCII)


def mac(match_id: str, seat: int, expires: int, key: bytes) -> str:
    """The ticket's signature over the match, the seat and the expiry."""
    message = f"hearthlog-stream-ticket:{match_id}:{seat}:{expires}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def issue(match_id: str, seat: int, key: bytes, now: float) -> tuple[str, int]:
    """A ticket for the seat, valid for LIFETIME seconds from ``now``, and its expiry."""
    expires = int(now) + LIFETIME
    return f"{seat}.{expires}.{mac(match_id, seat, expires, key)}", expires


def parse(ticket: str) -> tuple[int, int, str] | None:
    """The seat, expiry and signature a ticket claims, or None when it is not shaped as one."""
    found = SHAPE.fullmatch(ticket)
    if found is None:
        return None
    return int(found[1]), int(found[2]), found[3]


def valid(match_id: str, seat: int, expires: int, signature: str, key: bytes | None,
          now: float) -> bool:
    """Whether the claimed ticket was issued for this match and seat and has not expired."""
    if key is None or now >= expires:
        return False
    return hmac.compare_digest(mac(match_id, seat, expires, key), signature)
