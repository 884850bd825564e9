"""A storm of clients, each playing its own match as fast as it is answered, until told to stop.

Each client opens a two-seat Wick & Ember match (a long one), holds both seats' tokens and plays
random legal moves for whichever seat is to act, each command with a fresh ``command_id`` and the
``expected_version`` it was chosen at; when its match ends it opens another. A request that got
no answer (a dropped connection, a 503) is sent again, same id and body, until one comes, as a
careful client does. Every command's time sent, time answered and status is kept, so a test can
say when the first 200 came after a fault, how slow the slowest answer was and whether any 500
was given; the ledger (tables.py) keeps every acknowledgement. A match the server says is gone
(404: lost in an asynchronous failover) is left and a new one opened. Loopback only; the storm
stops by itself at ``stop()`` or its deadline.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.reliability.tables import TIMEOUT, Ledger

PAUSE = 0.2  # seconds before a client asks again after a 503 or a dropped request
GAME = {"game": "wick-and-ember", "seats": 2, "options": {"ember_target": 10}}


@dataclass
class Answer:
    """One request: what it was, when it was sent and answered, its status (None: dropped)."""

    kind: str
    sent: float
    answered: float
    status: int | None
    retry_after: bool = False  # the answer said when to try again (Retry-After)


@dataclass
class Storm:
    """``clients`` clients of one server, their requests and what they were answered."""

    base: str
    clients: int
    seconds: float
    ledger: Ledger = field(default_factory=Ledger)
    answers: list[Answer] = field(default_factory=list)
    lost_matches: set[str] = field(default_factory=set)
    matches: set[str] = field(default_factory=set)
    stopping: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self) -> None:
        """Run every client until ``stop()`` or the deadline."""
        deadline = time.monotonic() + self.seconds
        async with httpx.AsyncClient(base_url=self.base, timeout=TIMEOUT,
                                     limits=httpx.Limits(max_connections=self.clients * 2)) as http:
            await asyncio.gather(*(self._client(http, random.Random(n), deadline)
                                   for n in range(self.clients)))

    def stop(self) -> None:
        """Every client stops after its current request."""
        self.stopping.set()

    def acknowledged_after(self, moment: float) -> int:
        """Commands sent after ``moment`` and answered 200."""
        return sum(1 for a in self.answers
                   if a.kind == "command" and a.status == 200 and a.sent > moment)

    def first_ok_after(self, moment: float) -> float | None:
        """When the first command sent after ``moment`` was answered 200 (None: none was)."""
        times = [a.answered for a in self.answers
                 if a.kind == "command" and a.status == 200 and a.sent > moment]
        return min(times, default=None)

    def statuses(self, since: float = 0.0, until: float = float("inf")) -> Counter:
        """How often each status (None: dropped) was answered to requests sent in a window."""
        return Counter(a.status for a in self.answers if since <= a.sent <= until)

    def without_retry_after(self) -> int:
        """503s that did not say when to try again."""
        return sum(1 for a in self.answers if a.status == 503 and not a.retry_after)

    def slowest(self) -> float:
        """The longest any request waited for its answer (or for its connection to drop)."""
        return max((a.answered - a.sent for a in self.answers), default=0.0)

    async def until(self, condition: Callable[[], bool], seconds: float, what: str) -> None:
        """Wait until ``condition()`` holds; fail after ``seconds``."""
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, f"{what} did not happen within {seconds} s"
            await asyncio.sleep(0.05)

    def _done(self, deadline: float) -> bool:
        """Whether this client should stop."""
        return self.stopping.is_set() or time.monotonic() > deadline

    async def _client(self, http: httpx.AsyncClient, rng: random.Random,
                      deadline: float) -> None:
        """Open a match and play it to its end (or its loss), then another, until stopped."""
        while not self._done(deadline):
            opened = await self._open(http, deadline)
            if opened is None:
                return
            await self._play(http, rng, deadline, *opened)

    async def _open(self, http: httpx.AsyncClient,
                    deadline: float) -> tuple[str, list[str]] | None:
        """A new started match and its seats' tokens (None: stopped first, or it was lost
        while being opened and the storm is over)."""
        while not self._done(deadline):
            created = await self._answer(http, "open", deadline, "POST", "/matches", json=GAME)
            if created is None or created.status_code != 201:
                continue
            match_id, host = created.json()["match_id"], created.json()["host_token"]
            tokens = []
            for n in range(2):
                joined = await self._answer(http, "join", deadline, "POST",
                                            f"/matches/{match_id}/seats", json={"name": f"Seat{n}"})
                if joined is None or joined.status_code != 201:
                    break
                tokens.append(joined.json()["token"])
            started = await self._answer(http, "start", deadline, "POST",
                                         f"/matches/{match_id}/start", headers=_bearer(host))
            if len(tokens) == 2 and started is not None and started.status_code == 200:
                self.matches.add(match_id)
                return match_id, tokens
        return None

    async def _play(self, http: httpx.AsyncClient, rng: random.Random, deadline: float,
                    match_id: str, tokens: list[str]) -> None:
        """Play random legal moves until the match ends, is lost, or the storm stops."""
        moves = 0
        while not self._done(deadline):
            view = await self._answer(http, "view", deadline, "GET", f"/matches/{match_id}/view")
            if view is None:
                return
            if view.status_code == 404:
                self.lost_matches.add(match_id)
                return
            if view.status_code != 200:
                continue
            if view.json()["status"] == "finished":
                return
            seat = view.json()["board"]["turn"]
            legal = await self._answer(http, "legal", deadline, "GET",
                                       f"/matches/{match_id}/legal-actions",
                                       headers=_bearer(tokens[seat]))
            if legal is None or legal.status_code != 200 or not legal.json()["actions"]:
                continue
            body = {"command": rng.choice(legal.json()["actions"])["command"],
                    "command_id": f"{match_id[:8]}-{moves}-{rng.getrandbits(32):08x}",
                    "expected_version": legal.json()["version"]}
            answer = await self._answer(http, "command", deadline, "POST",
                                        f"/matches/{match_id}/commands", json=body,
                                        headers=_bearer(tokens[seat]))
            if answer is not None and answer.status_code == 404:
                self.lost_matches.add(match_id)
                return
            if answer is not None and answer.status_code == 200:
                self.ledger.acks[body["command_id"]] = (match_id, answer.json()["version"],
                                                        answer.content)
                moves += 1

    async def _answer(self, http: httpx.AsyncClient, kind: str, deadline: float, method: str,
                      path: str, **options: Any) -> httpx.Response | None:
        """Send until a definite answer (not dropped, not 503) comes; None if the storm stops
        first. Every try is noted."""
        while not self._done(deadline):
            sent = time.monotonic()
            try:
                answer = await http.request(method, path, **options)
            except httpx.TransportError:
                self.answers.append(Answer(kind, sent, time.monotonic(), None))
                self.ledger.dropped += 1
            else:
                self.answers.append(Answer(kind, sent, time.monotonic(), answer.status_code,
                                           "retry-after" in answer.headers))
                self.ledger.statuses[answer.status_code] += 1
                if answer.status_code != 503:
                    return answer
            self.ledger.retried += 1
            await asyncio.sleep(PAUSE)
        return None


def _bearer(token: str) -> dict[str, str]:
    """The Authorization header of a token."""
    return {"authorization": f"Bearer {token}"}
