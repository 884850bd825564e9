"""What the players' tests share: making players and matches through the API."""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar.testing import AsyncTestClient

Client = AsyncTestClient[Any]


def bearer(token: str) -> dict[str, str]:
    """The Authorization header of a token."""
    return {"Authorization": f"Bearer {token}"}


async def player(client: Client, name: str) -> dict[str, Any]:
    """A new player: its id, name and token."""
    made = await client.post("/players", json={"name": name})
    assert made.status_code == 201, made.text
    return made.json()


async def opened(client: Client, seats: int = 2, **body: Any) -> dict[str, Any]:
    """A new Wick & Ember match: its id and host token."""
    made = await client.post("/matches", json={"game": "wick-and-ember", "seats": seats, **body})
    assert made.status_code == 201, made.text
    return made.json()


async def count(database_url: str, table: str) -> int:
    """How many rows a table of the test's database holds (read beside the app)."""
    conn = await asyncpg.connect(database_url)
    try:
        return int(await conn.fetchval(f"SELECT count(*) FROM {table}"))
    finally:
        await conn.close()
