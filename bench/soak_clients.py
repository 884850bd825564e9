"""The soak's clients: paced bots playing one match each, and stream followers keeping every id.

A bot plays both seats of a 2-seat Wick & Ember match over one kept-alive connection: every
``pace`` seconds (with the first wait spread at random, so the load is smooth) the seat to act
reads its legal actions and sends one with a fresh command_id; every 2xx answer is kept in the
ledger (match, command id, version). A finished match is replaced by a new one at once, and the
match's followers move to it. A follower reads `GET /matches/{id}/stream` on a raw connection
(chunked SSE) and keeps the (first, version) of every update it is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Any

import msgspec

from bench.wire import Wire

GAME = {"game": "wick-and-ember", "seats": 2}
LONG = {**GAME, "options": {"ember_target": 10}}  # matches that outlast a short soak
SHORT = {**GAME, "options": {"ember_target": 1}}  # matches that end within seconds: churn
SETUP_TRIES = 30


class Ledger:
    """Everything the bots were answered, and every 2xx acknowledgement."""

    def __init__(self) -> None:
        self.acks: list[tuple[str, str, int]] = []  # match, command id, version
        self.latencies: list[tuple[float, float]] = []  # when sent, seconds to the answer
        self.statuses: dict[int, int] = {}
        self.failures: list[str] = []
        self.finished = 0
        self.setup_retries: dict[int, int] = {}  # opening a match: 429s and 503s tried again


def authed(wire: Wire, token: str | None) -> Wire:
    """The connection, sending this token with its next requests."""
    wire.auth = f"authorization: Bearer {token}\r\n" if token else ""
    return wire


class Bot:
    """One match slot: its current match, its two seat tokens, its followers."""

    def __init__(self, port: int, index: int, ledger: Ledger, pace: float,
                 game: dict[str, Any] = GAME) -> None:
        self.wire, self.index, self.ledger, self.pace = Wire(port), index, ledger, pace
        self.game = game
        self.rng = random.Random(index)
        self.match_id, self.tokens, self.to_act, self.sent = "", ["", ""], 0, 0
        self.followers: list[Follower] = []
        self.live = False  # its match is in play
        self.opening = False  # its last match finished and the next is being opened

    async def open(self) -> None:
        """Create, seat and start a new match; move the followers to it."""
        self.live, self.opening = False, True
        try:
            await self.opened()
        finally:
            self.opening = False
        for follower in self.followers:
            follower.move(self.match_id)

    async def opened(self) -> None:
        """The requests that open a match, as a client sends them; live once it is in play."""
        created = await self.setup(None, "POST", "/matches", self.game)
        self.match_id = created["match_id"]
        for seat, name in enumerate(("Ash", "Bryn")):
            joined = await self.setup(None, "POST", f"/matches/{self.match_id}/seats",
                                      {"name": name})
            self.tokens[seat] = joined["token"]
        await self.setup(created["host_token"], "POST", f"/matches/{self.match_id}/start")
        view = await self.setup(self.tokens[0], "GET", f"/matches/{self.match_id}/view")
        self.to_act, self.live = view["to_act"][0], True

    async def setup(self, token: str | None, method: str, path: str, body: Any = None) -> Any:
        """One step of opening a match, as a client does it: a 429 or 503 (the server shedding
        load) is counted and tried again after a second, any other refusal names itself."""
        for _ in range(SETUP_TRIES):
            status, answer = await authed(self.wire, token).request(method, path, body)
            if status < 300:
                return answer
            if status not in (429, 503):
                raise RuntimeError(f"{method} {path} answered {status}: {answer}")
            self.ledger.setup_retries[status] = self.ledger.setup_retries.get(status, 0) + 1
            await asyncio.sleep(1.0)
        raise RuntimeError(f"{method} {path} answered {status} {SETUP_TRIES} times: {answer}")

    async def play(self, until: float) -> None:
        """One command every ``pace`` seconds until ``until`` (monotonic)."""
        await asyncio.sleep(self.rng.uniform(0, self.pace))
        while time.monotonic() < until:
            began = time.monotonic()
            try:
                await self.turn()
            except (OSError, asyncio.IncompleteReadError, KeyError, TypeError,
                    RuntimeError) as error:
                self.ledger.failures.append(f"{self.match_id}: {error!r}")
                await self.wire.close()
            await asyncio.sleep(max(0.0, self.pace - (time.monotonic() - began)))

    async def turn(self) -> None:
        """The seat to act reads its legal actions and sends one of them."""
        path, wire = f"/matches/{self.match_id}", authed(self.wire, self.tokens[self.to_act])
        _, legal = await wire.request("GET", f"{path}/legal-actions")
        self.sent += 1
        command_id = f"s{self.index}-{self.sent}"
        body = {"command": self.rng.choice(legal["actions"])["command"], "command_id": command_id}
        sent_at = time.monotonic()
        status, answer = await wire.request("POST", f"{path}/commands", body)
        self.ledger.latencies.append((sent_at, time.monotonic() - sent_at))
        self.ledger.statuses[status] = self.ledger.statuses.get(status, 0) + 1
        if status != 200:
            self.ledger.failures.append(f"{self.match_id}: {status} {answer}")
            return
        self.ledger.acks.append((self.match_id, command_id, answer["version"]))
        if answer["view"]["status"] == "finished":
            self.ledger.finished += 1
            await self.open()
        else:
            self.to_act = answer["view"]["to_act"][0]


class Follower:
    """One spectator's stream on a raw connection; keeps every update's (first, version)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.seen: dict[str, list[tuple[int, int]]] = {}  # match id -> updates in order
        self.match_id = ""
        self.errors: list[str] = []
        self._task: asyncio.Task[None] | None = None

    def move(self, match_id: str) -> None:
        """Follow another match (the last one was finished): hang up and open its stream."""
        if self._task is not None:
            self._task.cancel()
        self.match_id = match_id
        self.seen[match_id] = []
        self._task = asyncio.get_running_loop().create_task(self._follow(match_id))

    async def close(self) -> None:
        """Hang up."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def last(self) -> int:
        """The last version sent of the match followed now."""
        updates = self.seen.get(self.match_id) or [(0, 0)]
        return updates[-1][1]

    async def _follow(self, match_id: str) -> None:
        """Read the stream's updates until cancelled."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            writer.write(f"GET /matches/{match_id}/stream HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                         "accept: text/event-stream\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            if head[9:12] != b"200":
                self.errors.append(f"{match_id}: {head[:12].decode()}")
                return
            async for data in events(reader):
                update = msgspec.json.decode(data)
                self.seen[match_id].append((update["first"], update["version"]))
        except (OSError, asyncio.IncompleteReadError) as error:
            self.errors.append(f"{match_id}: {error!r}")
        finally:
            writer.close()


async def events(reader: asyncio.StreamReader) -> Any:
    """The data of each SSE message in a chunked body."""
    pending = b""
    while True:
        size = int((await reader.readuntil(b"\r\n")).strip(), 16)
        if size == 0:
            return
        pending += (await reader.readexactly(size + 2))[:-2].replace(b"\r\n", b"\n")
        *messages, pending = pending.split(b"\n\n")
        for message in messages:
            data = [line[5:].strip() for line in message.split(b"\n") if line.startswith(b"data:")]
            if data:
                yield b"\n".join(data)
