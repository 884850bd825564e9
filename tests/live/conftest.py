"""Live-play fixtures: server processes with fast timings, several on one database."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.api.conftest import STARTUP_SECONDS
from tests.servers import Server, copied_database, serving

# Bots move 20 ms after the last event, the clock's sweep runs every 0.2 s, quiet streams beat
# every second: small enough for tests, far below what a person would notice.
FAST = {
    "HEARTHLOG_BOT_DELAY": "0.02",
    "HEARTHLOG_SWEEP_SECONDS": "0.2",
    "HEARTHLOG_HEARTBEAT_SECONDS": "1",
}


def serving_live(database_url: str) -> contextlib.AbstractContextManager[Server]:
    """A `hearthlog serve` process with the fast timings, for the length of a with-block."""
    return serving(database_url, startup_seconds=STARTUP_SECONDS, env=FAST)


@pytest.fixture(scope="package")
async def live_database(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """A migrated database shared by the live tests' two servers."""
    async with copied_database(postgres_server_url, template_database, "live") as url:
        yield url


@pytest.fixture(scope="package")
def live_server(live_database: str) -> Iterator[Server]:
    """A fast server process, for all the live tests."""
    with serving_live(live_database) as base:
        yield base


@pytest.fixture(scope="package")
def second_server(live_database: str) -> Iterator[Server]:
    """Another fast server process on the same database: bots and clocks run in both."""
    with serving_live(live_database) as base:
        yield base


@pytest.fixture(scope="package")
def two_servers(live_server: Server, second_server: Server) -> tuple[Server, Server]:
    """Two server processes on one database."""
    return live_server, second_server
