"""Client-side helpers for the tournament tests: an organizer and its requests over HTTP."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx


def bearer(token: str) -> dict[str, str]:
    """The Authorization header of a token."""
    return {"authorization": f"Bearer {token}"}


class Organizer:
    """One tournament's organizer: its client, the tournament id and the organizer token."""

    def __init__(self, base: str) -> None:
        self.client = httpx.AsyncClient(base_url=base, timeout=60)
        self.id = ""
        self.token = ""

    async def create(self, **body: Any) -> dict[str, Any]:
        """Open a tournament (a 2-seat Swiss of Wick & Ember unless ``body`` says otherwise)."""
        fields = {"name": "Winter Cup", "game": "wick-and-ember", "table_size": 2,
                  "format": "swiss", **body}
        answer = await self.client.post("/tournaments", json=fields)
        assert answer.status_code == 201, answer.text
        made = answer.json()
        self.id, self.token = made["tournament_id"], made["organizer_token"]
        return made

    async def register(self, name: str, **body: Any) -> dict[str, Any]:
        """Register an entrant; the answer (entrant, player_token)."""
        answer = await self.client.post(f"/tournaments/{self.id}/players",
                                        json={"name": name, **body})
        assert answer.status_code == 201, answer.text
        return answer.json()

    async def post(self, route: str, token: str | None = "", **kwargs: Any) -> httpx.Response:
        """POST a tournament route with the organizer's token (or ``token``, None: none)."""
        sent = self.token if token == "" else token
        headers = bearer(sent) if sent else {}
        return await self.client.post(f"/tournaments/{self.id}{route}", headers=headers, **kwargs)

    async def get(self, route: str = "", **kwargs: Any) -> httpx.Response:
        """GET a tournament route."""
        return await self.client.get(f"/tournaments/{self.id}{route}", **kwargs)

    async def close_registration(self) -> None:
        """Close registration."""
        answer = await self.post("/close")
        assert answer.status_code == 200, answer.text

    async def start_round(self) -> dict[str, Any]:
        """Start the next round; the round."""
        answer = await self.post("/rounds")
        assert answer.status_code == 201, answer.text
        return answer.json()

    async def until(self, status: str, seconds: float = 120) -> dict[str, Any]:
        """Wait until the tournament has ``status``; the tournament then."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            tournament = (await self.get()).json()
            if tournament["status"] == status:
                return tournament
            await asyncio.sleep(0.2)
        raise AssertionError(f"the tournament did not become {status}: {tournament}")

    async def round_finished(self, number: int, seconds: float = 120) -> dict[str, Any]:
        """Wait until every table of a round has finished; the round then."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = (await self.get(f"/rounds/{number}")).json()
            if all(table["status"] == "finished" for table in found["tables"]):
                return found
            await asyncio.sleep(0.2)
        raise AssertionError(f"round {number} did not finish: {found}")

    async def close(self) -> None:
        """Close the client."""
        await self.client.aclose()
