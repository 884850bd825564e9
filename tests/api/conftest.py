"""A real server process on loopback, on its own migrated database, for end-to-end tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.servers import Server, copied_database, serving

STARTUP_SECONDS = 60


@pytest.fixture(scope="module")
async def server_database(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """A migrated database shared by one test module's server."""
    async with copied_database(postgres_server_url, template_database, "api") as url:
        yield url


@pytest.fixture(scope="module")
def server(server_database: str) -> Iterator[Server]:
    """The base URL of a real `hearthlog serve` process, for one test module."""
    with serving(server_database, startup_seconds=STARTUP_SECONDS) as base:
        yield base


@pytest.fixture(scope="module")
def fast_server(server_database: str) -> Iterator[Server]:
    """A real `hearthlog serve` with fast bots and sweeps (tests.live's FAST: the clock's and
    the tournaments' sweeps every 0.2 s), for one test module."""
    from tests.live.conftest import FAST  # it imports this module: not at the top

    with serving(server_database, startup_seconds=STARTUP_SECONDS, env=FAST) as base:
        yield base
