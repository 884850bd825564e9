"""Client-side helpers for end-to-end tests: each player is a separate HTTP client."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx


async def open_match(base: str, seats: int, **body: Any) -> dict[str, Any]:
    """Create a match; returns the answer with match_id and host_token."""
    async with httpx.AsyncClient(base_url=base) as client:
        answer = await client.post("/matches", json={"game": "wick-and-ember", "seats": seats,
                                                      **body})
        assert answer.status_code == 201, answer.text
        return answer.json()


class Player:
    """One seat's client: its own connection, its own token."""

    def __init__(self, base: str, match_id: str, name: str) -> None:
        self.client = httpx.AsyncClient(base_url=base, timeout=30)
        self.match_id, self.name = match_id, name
        self.seat: int | None = None
        self.token: str | None = None

    async def join(self, **extra: Any) -> None:
        """Take a seat."""
        answer = await self.client.post(f"/matches/{self.match_id}/seats",
                                        json={"name": self.name, **extra})
        assert answer.status_code == 201, answer.text
        self.seat, self.token = answer.json()["seat"], answer.json()["token"]
        self.client.headers["authorization"] = f"Bearer {self.token}"

    async def get(self, route: str, **params: Any) -> dict[str, Any]:
        """GET a match route with this seat's token."""
        answer = await self.client.get(f"/matches/{self.match_id}{route}", params=params)
        assert answer.status_code == 200, answer.text
        return answer.json()

    async def send(self, command: dict[str, Any], **extra: Any) -> httpx.Response:
        """POST a command for this seat."""
        return await self.client.post(f"/matches/{self.match_id}/commands",
                                      json={"command": command, **extra})

    async def play_randomly(self, rng: random.Random, poll: float = 0.05) -> dict[str, Any]:
        """Play random legal actions whenever it is this seat's turn, until the match ends: one
        request a move, since a command's answer carries the next legal actions; a seat that
        owes nothing asks for them (and for its view, to see the end) until it does."""
        actions: list[dict[str, Any]] = []
        while True:
            if not actions:
                view = await self.get("/view")
                if view["status"] == "finished":
                    return view
                actions = [a["command"] for a in (await self.get("/legal-actions"))["actions"]]
                if not actions:
                    await asyncio.sleep(poll)
                    continue
            answer = await self.send(rng.choice(actions))
            assert answer.status_code in (200, 409), answer.text
            sent = answer.json() if answer.status_code == 200 else {}
            if sent.get("view", {}).get("status") == "finished":
                return sent["view"]
            actions = [a["command"] for a in sent.get("actions", [])]

    async def close(self) -> None:
        """Close the connection."""
        await self.client.aclose()


async def seated_match(base: str, names: list[str], **body: Any) -> tuple[dict, list[Player]]:
    """A started match with one Player per name, seated in order."""
    created = await open_match(base, len(names), **body)
    players = [Player(base, created["match_id"], name) for name in names]
    for player in players:
        await player.join()
    async with httpx.AsyncClient(base_url=base) as host:
        started = await host.post(f"/matches/{created['match_id']}/start",
                                  headers={"authorization": f"Bearer {created['host_token']}"})
        assert started.status_code == 200, started.text
    return created, players


def _written(export: dict[str, Any], path: Path) -> str:
    """The export written to a file, and the file's name."""
    path.write_text(json.dumps(export))
    return str(path)


async def finished_documents(server: str, match_id: str) -> tuple[dict, dict, dict]:
    """A finished match's summary, the server's verification report and its export."""
    async with httpx.AsyncClient(base_url=server, timeout=60) as client:
        url = f"/matches/{match_id}"
        summary = (await client.get(url)).json()
        verification = (await client.get(f"{url}/verification")).json()
        export = (await client.get(f"{url}/export")).json()
    return summary, verification, export


async def verified_offline(export: dict[str, Any], path: Path) -> None:
    """Write an export to a file and check it with `hearthlog verify` in its own process."""
    name = _written(export, path)
    checked = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "service.cli.main", "verify", name,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(checked.communicate(), timeout=300)
    assert checked.returncode == 0, out.decode()
