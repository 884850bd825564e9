"""Deathwick over HTTP at its largest: twenty seats, four taking their turns at once, reaction
windows answered, countered and timed out, every follower's stream complete (slow).

Each client acts from its own seat stream: an update whose board offers it actions is its cue
(a stale one is refused with 409 and the next update is the cue again). A client that leaves a
window unanswered is timed out by the server's clock, which answers allow (D8).
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest

from service.cli.play import SseParser
from tests.api.players import Player, open_match
from tests.live.stream_client import Follower, finished, stored_events

pytestmark = pytest.mark.slow
NAMES = [f"Seat{n}" for n in range(20)]
# A practice deal: two Salts on top of every Candle (the ten decks' forty 5s), so that Salts and
# counter-Salts are sure to be thrown.
SALTED = [[f"5{'SHCD'[n % 4]}", f"5{'SHCD'[(n + 1) % 4]}"] for n in range(20)]


class Haunter(Player):
    """A seat that plays from its stream: Haunts often, Salts and counters when it can, and now
    and then (the ``idle`` seats) lets a window run out of time."""

    def __init__(self, base: str, match_id: str, name: str, idle: bool, seed: int) -> None:
        super().__init__(base, match_id, name)
        self.rng, self.idle = random.Random(seed), idle
        self.updates: list[dict[str, Any]] = []

    async def play(self) -> None:
        """Follow the seat's stream to the end, acting on each update that offers actions."""
        parser = SseParser()
        async with self.client.stream("GET", f"/matches/{self.match_id}/stream",
                                      timeout=httpx.Timeout(30, read=120)) as answer:
            assert answer.status_code == 200
            async for line in answer.aiter_lines():
                message = parser.feed(line)
                if message is None:
                    continue
                update = json.loads("\n".join(message.data))
                self.updates.append(update)
                if finished(update):
                    return
                await self.act(update["view"]["board"]["legal_actions"], update["version"])

    async def act(self, actions: list[dict[str, Any]], version: int) -> None:
        """One choice among the offered actions (nothing when a window is left to time out),
        sent for the version it was offered at (a stale one is refused with 409)."""
        if not actions:
            return
        kinds = {a["type"] for a in actions}
        if "allow" in kinds and self.idle and self.rng.random() < 0.5:
            return
        salts = [a for a in actions if a["type"] in ("salt", "cancel_haunt")]
        haunts = [a for a in actions if a["type"] == "haunt"]
        keep = [a for a in actions if a["type"] == "discard" and not a["card"].startswith("5")]
        if salts and self.rng.random() < 0.8:
            choice = salts[0]
        elif keep:
            choice = self.rng.choice(keep)
        elif haunts and self.rng.random() < 0.6:
            choice = self.rng.choice(haunts)
        else:
            choice = self.rng.choice(actions)
        answer = await self.send(choice, expected_version=version)
        assert answer.status_code in (200, 409), answer.text


async def started(base: str, bots: list[str], names: list[str], **body: Any) -> tuple[str, list]:
    """A started 20-seat Deathwick match: bots first, then the named clients."""
    created = await open_match(base, len(bots) + len(names), game="deathwick", **body)
    match_id = created["match_id"]
    async with httpx.AsyncClient(base_url=base) as client:
        for bot in bots:
            seated = await client.post(f"/matches/{match_id}/seats", json={"bot": bot})
            assert seated.status_code == 201, seated.text
    players = [Haunter(base, match_id, name, idle=n % 5 == 3, seed=n)
               for n, name in enumerate(names)]
    for player in players:
        await player.join()
    async with httpx.AsyncClient(base_url=base) as host:
        answer = await host.post(f"/matches/{match_id}/start",
                                 headers={"authorization": f"Bearer {created['host_token']}"})
        assert answer.status_code == 200, answer.text
    return match_id, players


def complete(updates: list[dict[str, Any]], last: int) -> bool:
    """The updates cover every version from 1 to the last exactly once, in order."""
    covered = [v for u in updates for v in range(u["first"], u["version"] + 1)]
    return covered == list(range(1, last + 1))


def kinds(events: list[Any]) -> list[str]:
    """The stored events' types."""
    return [row["type"] for row in events]


def timed_out_answers(events: list[Any]) -> list[dict[str, Any]]:
    """The actions the server played for seats out of time."""
    found = []
    for row in events:
        command = json.loads(row["metadata"]).get("command") or {}
        if command.get("type") == "time_out":
            found.append(command["action"])
    return found


async def test_twenty_clients_play_a_twenty_seat_match_with_classes_to_the_end(
        live_server, live_database):
    """Given 20 clients, two Salts atop each Candle and a 2-second clock, when each plays from
    its own seat stream, then
    the match ends; windows were opened, Salted, countered and timed out (answered allow);
    four seats took turns at once; and every client's stream is complete."""
    match_id, players = await started(live_server, [], NAMES, practice=True, turn_seconds=2,
                                      options={"classes": "on", "candles": SALTED})
    spectator = Follower(live_server, match_id)
    try:
        await asyncio.wait_for(asyncio.gather(spectator.follow(finished),
                                              *(p.play() for p in players)), timeout=1500)
    finally:
        for client in (spectator, *players):
            await client.close()
    events = await stored_events(live_database, match_id)
    types = kinds(events)
    assert types[-1] == "circle_closed"
    assert {"reaction_awaited", "salt_thrown", "allowed"} <= set(types)
    assert {"type": "allow"} in timed_out_answers(events)
    steps = [json.loads(row["data"])["seats"] for row in events if row["type"] == "step_began"]
    assert max(len(seats) for seats in steps) == 4
    assert any(_countered(events)), "no Salt was ever countered"
    for follower in (spectator, *players):
        assert complete(follower.updates, len(events))


def _countered(events: list[Any]) -> list[bool]:
    """For each Salt, whether it was a counter (two Salts in a row on one action)."""
    found, last = [], None
    for row in events:
        if row["type"] == "salt_thrown":
            found.append(last == "salt_thrown")
        if row["type"] not in ("reaction_awaited",):
            last = row["type"]
    return found


async def test_nineteen_bots_and_one_person_play_a_twenty_seat_match_to_the_end(
        live_server, live_database):
    """Given 19 bots (wary and random) and one client, when the client plays from its stream,
    then the match ends, and the client's stream and a spectator's are complete."""
    bots = ["wary" if n % 2 else "random" for n in range(19)]
    match_id, (person,) = await started(live_server, bots, ["Mara"], options={"classes": "on"})
    spectator = Follower(live_server, match_id)
    try:
        await asyncio.wait_for(asyncio.gather(spectator.follow(finished), person.play()),
                               timeout=1500)
    finally:
        await spectator.close()
        await person.close()
    events = await stored_events(live_database, match_id)
    assert kinds(events)[-1] == "circle_closed"
    movers = {json.loads(row["metadata"]).get("seat") for row in events}
    assert set(range(19)) <= movers
    assert complete(person.updates, len(events)) and complete(spectator.updates, len(events))
