"""After the soak: nothing acknowledged lost, every follower sent every version once, in order."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from bench.soak_clients import Follower, Ledger

CATCH_UP = 30.0  # seconds the followers get to reach the store's last version
SETTLE = 5.0  # seconds for the commands in flight when the bots stopped to be answered


async def sessions(url: str) -> dict[str, int]:
    """The database's sessions now, in all and of the server (pools and listeners)."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT application_name, count(*) FROM pg_stat_activity "
                                "WHERE backend_type = 'client backend' GROUP BY 1")
    finally:
        await conn.close()
    found = {row[0]: row[1] for row in rows}
    return {"postgres_sessions": sum(found.values()),
            "pool_sessions": found.get("hearthlog", 0),
            "listen_sessions": found.get("hearthlog-listen", 0)}


async def heads(url: str) -> dict[str, int]:
    """Every match's stored version."""
    conn = await asyncpg.connect(url)
    try:
        return {str(r[0]): r[1] for r in await conn.fetch("SELECT match_id, version FROM heads")}
    finally:
        await conn.close()


async def unmatched(url: str, acks: list[tuple[str, str, int]]) -> list[str]:
    """The acknowledgements with no event of their command at their version."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            """SELECT a.m, a.c, a.v FROM unnest($1::uuid[], $2::text[], $3::int[]) AS a(m, c, v)
            LEFT JOIN events e ON e.match_id = a.m AND e.version = a.v
                AND e.metadata->>'command_id' = a.c
            WHERE e.match_id IS NULL""",
            [m for m, _, _ in acks], [c for _, c, _ in acks], [v for _, _, v in acks])
    finally:
        await conn.close()
    return [f"{r[0]} {r[1]} v{r[2]}" for r in rows]


def tiling(updates: list[tuple[int, int]], head: int) -> str | None:
    """Why a follower's updates of one match are not every version 1..head once, in order."""
    expected = 1
    for first, version in updates:
        if first != expected or version < first:
            return f"update {first}..{version} where {expected} was next"
        expected = version + 1
    return None if expected - 1 == head else f"ended at {expected - 1} of {head}"


def follower_problems(followers: list[Follower], stored: dict[str, int]) -> list[str]:
    """Each follower's updates of each match it followed, against the version stored: every
    version once, in order, up to the stored head for the match it follows now, and up to the
    last one sent for a match it moved on from (none at all, if it moved on before its first
    update: nothing was promised)."""
    problems: list[str] = []
    for follower in followers:
        for match_id, updates in follower.seen.items():
            if match_id != follower.match_id and not updates:
                continue
            last = stored[match_id] if match_id == follower.match_id else updates[-1][1]
            why = tiling(updates, last)
            if why:
                problems.append(f"{match_id}: {why}")
    return problems


async def audit(url: str, ledger: Ledger, followers: list[Follower]) -> dict[str, Any]:
    """The acknowledgements against the store; the followers against the stored versions."""
    await asyncio.sleep(SETTLE)  # commands in flight when the bots stopped are still appended
    stored = await heads(url)
    deadline = asyncio.get_running_loop().time() + CATCH_UP
    while asyncio.get_running_loop().time() < deadline and any(  # noqa: ASYNC110 (a poll)
            f.last() < stored.get(f.match_id, 0) for f in followers):
        await asyncio.sleep(0.5)
    stored = await heads(url)  # as it is at the end, against what every follower was sent
    problems = follower_problems(followers, stored)
    lost = await unmatched(url, ledger.acks)
    errors = [e for f in followers for e in f.errors]
    return {"acknowledged": len(ledger.acks), "lost": len(lost), "lost_examples": lost[:10],
            "followers": len(followers), "follower_problems": len(problems),
            "follower_examples": problems[:10], "follower_errors": len(errors),
            "follower_error_examples": errors[:10],
            "updates_received": sum(len(u) for f in followers for u in f.seen.values())}
