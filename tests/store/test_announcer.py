"""The announcer loses only wake-ups when a send fails, whatever asyncpg raises for a connection
still recovering from an outage: it logs one line, raises nothing, and sends what comes next."""

from __future__ import annotations

import logging
from typing import Any

import asyncpg
import pytest

from service.store.append import Announcer


class FlakyPool:
    """A pool whose first execute fails with ``error``; later ones are recorded."""

    def __init__(self, error: Exception) -> None:
        self.error: Exception | None = error
        self.sent: list[Any] = []

    async def execute(self, query: str, *args: Any) -> None:
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        self.sent.append(args)


@pytest.mark.parametrize("error", [
    asyncpg.InternalClientError("cannot switch to state 12; another operation (2) is in progress"),
    asyncpg.InterfaceError("connection is closed"),
    ConnectionResetError("reset by peer"),
], ids=["internal client error", "interface error", "os error"])
async def test_a_failed_send_is_one_logged_line_and_the_next_batch_is_sent(
    error: Exception, caplog: pytest.LogCaptureFixture
):
    pool = FlakyPool(error)
    announcer = Announcer(pool, "hearthlog")  # type: ignore[arg-type]

    with caplog.at_level(logging.WARNING):
        announcer.announce("m:1")
        await announcer.drain()
        announcer.announce("m:2")
        await announcer.drain()

    assert pool.sent == [("hearthlog", ["m:2"])]
    assert [r.getMessage() for r in caplog.records] == [f"could not announce 1 appends: {error!r}"]
