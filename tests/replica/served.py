"""Which database served a GET, as the server's own access-log line for it says."""

from __future__ import annotations

import asyncio
import time
from urllib.parse import urlsplit

import httpx

from tests.reliability.logcheck import access_lines
from tests.servers import Server


async def served(server: Server, url: str) -> tuple[httpx.Response, str | None]:
    """GET ``url``: the answer, and the database its own access-log line names (the first new
    line of that route and status: the line of an earlier request, written late by the log's
    writer thread, or a stray client of another test on a reused port is not it)."""
    before = len(access_lines(server.output))
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        answer = await client.get(url)
    route, deadline = urlsplit(url).path, time.monotonic() + 5
    while time.monotonic() < deadline:  # the line is written just after the answer is sent
        mine = [line for line in access_lines(server.output)[before:]
                if (line["method"], line["status"]) == ("GET", answer.status_code)
                and same_route(line["path"], route)]
        if mine:
            return answer, mine[0].get("read")
        await asyncio.sleep(0.05)
    raise AssertionError(f"no access line for GET {url}")


def same_route(logged: str, path: str) -> bool:
    """Whether an access line's path (the route's template, or the path with ids blanked as
    ``*``) is that of ``path``."""
    ours, theirs = logged.split("/"), path.split("/")
    return len(ours) == len(theirs) and all(
        mine == given or mine == "*" or (mine.startswith("{") and mine.endswith("}"))
        for mine, given in zip(ours, theirs, strict=True))
