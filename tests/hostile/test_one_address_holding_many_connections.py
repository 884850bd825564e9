"""Attack: one address opening more connections than its share (issue #34, defect 7).

9,000 stalled uploads from one address filled the server's 8,192 connections. Each request a
client has in flight holds a connection; past HEARTHLOG_CONNECTIONS_PER_CLIENT of them the next
is answered 429 at once, with Retry-After and `Connection: close`, so the refused connection is
freed rather than held. Other addresses are not counted against it. The load itself (one address
past the cap against a real server) is tests/reliability/test_overload.py's.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from service.http.limits import ClientLimits, Limits

CAP = 3


class Held:
    """An app that holds every request until released, like a stalled upload."""

    def __init__(self) -> None:
        self.inside, self.release = 0, asyncio.Event()
        self.arrived = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.inside += 1
        if self.inside == CAP:
            self.arrived.set()
        await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def request(address: str) -> dict:
    """An upload's scope from ``address``."""
    return {"type": "http", "method": "POST", "path": "/matches", "client": (address, 40000)}


async def served(limits: ClientLimits, address: str) -> list[dict]:
    """The messages the client at ``address`` is sent."""
    got: list[dict] = []

    async def send(message: dict) -> None:
        got.append(message)

    await limits(request(address), None, send)
    return got


async def test_an_address_past_its_connections_is_refused_at_once_and_others_are_not():
    """Given a cap of 3 requests in flight per address and 3 stalled uploads from one address,
    when a fourth comes from it, then it is 429 at once (Retry-After, Connection: close, the
    limit and its variable named) while another address is still served; once the stalled ones
    end, the first address is served again."""
    app = Held()
    limits = ClientLimits(app, Limits(connections_per_client=CAP, requests_per_minute=10**6,
                                      matches_per_hour=10**6))
    stalled = [asyncio.create_task(served(limits, "10.0.0.1")) for _ in range(CAP)]
    await app.arrived.wait()
    refused = await served(limits, "10.0.0.1")
    other = asyncio.create_task(served(limits, "10.0.0.2"))
    start = refused[0]
    headers = dict(start["headers"])
    body = json.loads(refused[1]["body"])
    assert start["status"] == 429 and headers[b"connection"] == b"close"
    assert headers[b"retry-after"] == b"1" and body["extra"]["limit"] == "connections_per_client"
    assert "HEARTHLOG_CONNECTIONS_PER_CLIENT" in body["detail"]
    app.release.set()
    assert [m[0]["status"] for m in await asyncio.gather(*stalled, other)] == [200] * (CAP + 1)
    assert (await served(limits, "10.0.0.1"))[0]["status"] == 200
    assert limits.held == {}
