"""A test client of the match stream: collects updates, and can drop and resume its connection."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import asyncpg
import httpx

from service.cli.play import SseParser


class Follower:
    """One viewer following a match's stream, keeping every update it was sent."""

    def __init__(self, base: str, match_id: str, token: str | None = None) -> None:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        self.client = httpx.AsyncClient(
            base_url=base, headers=headers, timeout=httpx.Timeout(30, read=60)
        )
        self.match_id = match_id
        self.updates: list[dict[str, Any]] = []
        self.last_id: str | None = None
        self.heartbeats = 0

    async def follow(self, until: Any, limit: int | None = None, beats: int | None = None
                     ) -> None:
        """Read updates until ``until(update)`` holds, ``limit`` updates came or ``beats``
        heartbeats did; then hang up."""
        headers = {} if self.last_id is None else {"Last-Event-ID": self.last_id}
        parser, taken = SseParser(), 0
        async with self.client.stream(
            "GET", f"/matches/{self.match_id}/stream", headers=headers
        ) as answer:
            assert answer.status_code == 200, await answer.aread()
            async for line in answer.aiter_lines():
                self.heartbeats += line.startswith(":")
                if beats is not None and self.heartbeats >= beats:
                    return
                message = parser.feed(line)
                if message is None:
                    continue
                update = json.loads("\n".join(message.data))
                self.updates.append(update)
                self.last_id, taken = message.id, taken + 1
                if until(update) or (limit is not None and taken >= limit):
                    return

    async def close(self) -> None:
        """Close the connection."""
        await self.client.aclose()


def finished(update: dict[str, Any]) -> bool:
    """Whether an update shows the match over."""
    return update["view"]["status"] == "finished"


async def cut_listeners(database_url: str) -> int:
    """Kill every server's notification listener on this database; how many were cut."""
    connection = await asyncpg.connect(database_url)
    try:
        return await connection.fetchval(
            """SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE application_name = 'hearthlog-listen' AND datname = current_database()"""
        )
    finally:
        await connection.close()


async def stored_events(database_url: str, match_id: str) -> list[asyncpg.Record]:
    """Every stored event of a match, in version order."""
    connection = await asyncpg.connect(database_url)
    try:
        return await connection.fetch(
            """SELECT version, type, data::text AS data, metadata::text AS metadata, recorded_at
            FROM events WHERE match_id = $1 ORDER BY version""",
            match_id,
        )
    finally:
        await connection.close()


async def wait_for(check: Any, seconds: float, poll: float = 0.1) -> Any:
    """Poll an async ``check`` until it returns something truthy; fail after ``seconds``."""
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        if result := await check():
            return result
        await asyncio.sleep(poll)
    raise AssertionError(f"still not true after {seconds} s")
