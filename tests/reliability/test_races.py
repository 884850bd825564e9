"""Races: 50 clients fire conflicting commands at one match; exactly one wins each version.

Each client holds one seat's token, reads the seat's legal actions (with the version), and sends
one of them with that expected_version, again and again, for a bounded time. Afterwards: the
winners' (expected version -> new version) steps chain without a gap from the start to the end,
every loser got 409 naming a later current version, and the stored commands are exactly the
winners', in order, re-decided to the same events (audit).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

import httpx
import pytest

from tests.reliability.audit import audit, history_of, seeds
from tests.reliability.logcheck import log_problems
from tests.reliability.tables import TIMEOUT, Table, open_table

pytestmark = pytest.mark.slow
CLIENTS = 50
SECONDS = 40


@dataclass(frozen=True)
class Shot:
    """One command a client fired and what came back."""

    command_id: str
    expected: int
    status: int
    version: int | None  # the new version (200) or the current one named by the 409


async def fire(client: httpx.AsyncClient, table: Table, name: str, deadline: float,
               shots: list[Shot]) -> None:
    """Fire legal commands at the expected version until the deadline or the match ends."""
    rng, url = random.Random(name), f"/matches/{table.match_id}"
    for n in range(10_000):
        if time.monotonic() > deadline:
            return
        legal = (await client.get(f"{url}/legal-actions")).json()
        if not legal["actions"]:
            if (await client.get(f"{url}/view")).json()["status"] == "finished":
                return
            await asyncio.sleep(rng.uniform(0.01, 0.05))
            continue
        body = {"command": rng.choice(legal["actions"])["command"], "command_id": f"{name}-{n}",
                "expected_version": legal["version"]}
        answer = await client.post(f"{url}/commands", json=body)
        shots.append(shot(body, answer))


def shot(body: dict, answer: httpx.Response) -> Shot:
    """What one command got: 200 with the new version, or 409 with the current one."""
    data = answer.json()
    version = data.get("version") if answer.status_code == 200 else (
        data.get("extra") or {}).get("current_version")
    return Shot(body["command_id"], body["expected_version"], answer.status_code, version)


async def race(server: str, index: int, deadline: float) -> tuple[Table, int, list[Shot]]:
    """One long match raced by CLIENTS clients: (table, starting version, shots)."""
    table = await open_table([server], 2, random.Random(index), options={"ember_target": 10})
    start = (await table.spectator().get(f"/matches/{table.match_id}/view")).json()["version"]
    shots: list[Shot] = []
    clients = [httpx.AsyncClient(base_url=server, timeout=TIMEOUT, headers={
        "authorization": f"Bearer {table.tokens[n % 2]}"}) for n in range(CLIENTS)]
    await asyncio.gather(*(fire(c, table, f"m{index}c{n}", deadline, shots)
                           for n, c in enumerate(clients)))
    for client in clients:
        await client.aclose()
    return table, start, shots


def one_winner_per_version(start: int, end: int, shots: list[Shot]) -> list[str]:
    """The winners' steps tile start..end exactly; every loser was told of a later version."""
    winners = sorted((s for s in shots if s.status == 200), key=lambda s: s.expected)
    found = [f"unexpected answer {s}" for s in shots if s.status not in (200, 409)]
    found += [f"a 409 without a later current version: {s}" for s in shots
              if s.status == 409 and not (s.version is not None and s.version > s.expected)]
    steps = [start] + [s.version for s in winners]
    if [s.expected for s in winners] != steps[:-1] or steps[-1] != end:
        found.append(f"winners do not chain from {start} to {end}: {winners[:5]}...")
    return found


async def test_fifty_clients_racing_one_match_leave_exactly_one_winner_per_version(
    server, server_database, figures
):
    """Given 50 clients racing legal commands at one match (a new match when one ends), then
    each version has one winner, the others get 409 with the current version, and the store
    holds exactly the winners' commands, gap-free and chained."""
    deadline, played, index = time.monotonic() + SECONDS, [], 0
    while time.monotonic() < deadline and index < 5:
        played.append(await race(server, index, deadline))
        index += 1
    problems, winners = [], []
    for table, start, shots in played:
        history = await history_of(server_database, table.match_id)
        problems += one_winner_per_version(start, len(history.events), shots)
        won = [s.command_id for s in sorted(shots, key=lambda s: s.expected) if s.status == 200]
        stored = [e.metadata.command_id for e in history.events[start:] if e.metadata.command]
        problems += [] if won == stored else ["stored commands differ from the winners'"]
        winners += won
    events, audited = await audit(server_database, [t.match_id for t, _, _ in played])
    assert problems + audited == []
    secrets = [t for table, _, _ in played for t in table.tokens] + await seeds(server_database)
    assert log_problems(server.output, secrets) == []
    shots = [s for _, _, match_shots in played for s in match_shots]
    figures.update(clients=CLIENTS, seconds=SECONDS, matches=len(played), commands=len(shots),
                   won=len(winners), refused_409=sum(s.status == 409 for s in shots),
                   events_audited=events, lost=0)
