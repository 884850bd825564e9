"""Client-side bots: each table is a match whose seats play random legal moves over HTTP.

Every seat has its own client and token; with several servers, each request goes to one of them
at random. Every command carries a fresh ``command_id`` and the ``expected_version`` it was
chosen at. An answer that never came (a dropped connection, a 503) is sent again, same id, same
body, until one comes: that is what a careful client does. The ledger keeps every status seen
and every 2xx acknowledgement, so a test can check afterwards that nothing acknowledged is lost.
"""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

TIMEOUT = httpx.Timeout(30.0, connect=5.0)
Check = Callable[["Table"], Awaitable[None]]
RETRY_PAUSE = 0.25


@dataclass
class Ledger:
    """What the clients were told: statuses, acknowledged commands, dropped requests."""

    statuses: Counter = field(default_factory=Counter)
    acks: dict[str, tuple[str, int, bytes]] = field(default_factory=dict)
    dropped: int = 0
    retried: int = 0

    def unexpected(self) -> dict[int, int]:
        """Statuses no bot should see: 5xx other than 503, and 4xx (bots only send legal moves)."""
        return {code: n for code, n in self.statuses.items() if code >= 400 and code != 503}


@dataclass
class Table:
    """One match and its seats' clients (one per server per seat)."""

    match_id: str
    tokens: list[str]
    clients: list[list[httpx.AsyncClient]]
    spectators: list[httpx.AsyncClient]
    rng: random.Random
    sent: Counter = field(default_factory=Counter)
    host_token: str = ""
    moves: int = 0
    finished: bool = False

    def seat_client(self, seat: int) -> httpx.AsyncClient:
        """The seat's client for a server picked at random."""
        return self.rng.choice(self.clients[seat])

    def spectator(self) -> httpx.AsyncClient:
        """A tokenless client for a server picked at random."""
        return self.rng.choice(self.spectators)

    async def close(self) -> None:
        """Close every connection."""
        for client in [*self.spectators, *(c for seat in self.clients for c in seat)]:
            await client.aclose()


async def open_table(bases: list[str], seats: int, rng: random.Random, **body: Any) -> Table:
    """Create, fill and start a match (before any fault), with one client per seat per server."""
    sent: Counter = Counter()

    async def count(request: httpx.Request) -> None:
        """Count each request by path (to compare with the server's access log)."""
        sent[request.url.path] += 1

    hooks = {"request": [count]}
    async with httpx.AsyncClient(base_url=bases[0], timeout=TIMEOUT, event_hooks=hooks) as host:
        created = (await host.post("/matches", json={
            "game": "wick-and-ember", "seats": seats, **body})).json()
        match_id, tokens = created["match_id"], []
        for n in range(seats):
            joined = await host.post(f"/matches/{match_id}/seats", json={"name": f"Bot{n}"})
            tokens.append(joined.json()["token"])
        started = await host.post(f"/matches/{match_id}/start",
                                  headers={"authorization": f"Bearer {created['host_token']}"})
        assert started.status_code == 200, started.text
    clients = [[httpx.AsyncClient(base_url=b, timeout=TIMEOUT, event_hooks=hooks,
                                  headers={"authorization": f"Bearer {t}"}) for b in bases]
               for t in tokens]
    spectators = [httpx.AsyncClient(base_url=b, timeout=TIMEOUT, event_hooks=hooks)
                  for b in bases]
    return Table(match_id, tokens, clients, spectators, rng, sent, created["host_token"])


async def play(table: Table, ledger: Ledger, deadline: float, after: Check | None = None) -> bool:
    """Play random legal moves until the match ends or the deadline passes; True when it ended.

    ``after(table)``, if given, runs after every acknowledged move (the match is still then).
    """
    while time.monotonic() < deadline:
        move = await answered(ledger, deadline, functools.partial(next_move, table))
        if move is None:
            return table.finished
        if isinstance(move, httpx.Response):  # refused, or nothing to do yet: look again
            await asyncio.sleep(RETRY_PAUSE)
            continue
        seat, body = move
        answer = await answered(ledger, deadline, functools.partial(send, table, seat, body))
        if answer is not None and answer.status_code == 200:
            ledger.acks[body["command_id"]] = (table.match_id, answer.json()["version"],
                                               answer.content)
            table.moves += 1
            if after is not None:
                await after(table)
    return table.finished


async def next_move(table: Table) -> tuple[int, dict[str, Any]] | httpx.Response | None:
    """The seat to act and a random legal command for it; None once the match is over.

    A response is returned instead when a lookup was refused or the seat has nothing to do.
    """
    view = await table.spectator().get(f"/matches/{table.match_id}/view")
    if view.status_code != 200:
        return view
    if view.json()["status"] == "finished":
        table.finished = True
        return None
    seat = view.json()["board"]["turn"]
    legal = await table.seat_client(seat).get(f"/matches/{table.match_id}/legal-actions")
    if legal.status_code != 200 or not legal.json()["actions"]:
        return legal
    command_id = f"{table.match_id[:8]}-{table.moves}-{table.rng.getrandbits(32):08x}"
    return seat, {"command": table.rng.choice(legal.json()["actions"])["command"],
                  "command_id": command_id, "expected_version": legal.json()["version"]}


async def send(table: Table, seat: int, body: dict[str, Any]) -> httpx.Response:
    """POST a command for a seat, through a server picked at random."""
    return await table.seat_client(seat).post(f"/matches/{table.match_id}/commands", json=body)


async def answered(ledger: Ledger, deadline: float, attempt: Any) -> Any:
    """Run ``attempt`` until it gets a definite answer (not dropped, not 503) or time runs out.

    An ``httpx.Response`` returned is an answer to note; anything else is the attempt's result.
    """
    while time.monotonic() < deadline:
        try:
            result = await attempt()
        except httpx.TransportError:
            ledger.dropped += 1
        else:
            if not isinstance(result, httpx.Response):
                return result
            ledger.statuses[result.status_code] += 1
            if result.status_code != 503:
                return result
        ledger.retried += 1
        await asyncio.sleep(RETRY_PAUSE)
    return None


async def play_all(
    tables: list[Table], ledger: Ledger, seconds: float, after: Check | None = None
) -> int:
    """Play every table at once for at most ``seconds``; the number of tables that finished."""
    deadline = time.monotonic() + seconds
    done = await asyncio.gather(*(play(table, ledger, deadline, after) for table in tables))
    return sum(done)
