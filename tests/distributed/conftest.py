"""The ordinary server on a real Citus cluster (tests/citus.py): `hearthlog serve` pointed at the
coordinator of a database `hearthlog distribute` placed, with fast bots and sweeps and the test
games beside the real ones, shared by the package's tests (all slow)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from service.store.migrations import distribute
from tests.citus import Cluster
from tests.live.conftest import FAST
from tests.reporting import FIGURES
from tests.servers import Server, serving

STARTUP_SECONDS = 90
EXTRA_GAMES = "tests.tally,tests.core.hexes"  # every registered rulebook served, test games too


@pytest.fixture(scope="package")
async def cluster_url(citus_cluster: Cluster) -> AsyncIterator[str]:
    """A database on the cluster, distributed: the coordinator's URL."""
    url = await citus_cluster.database()
    await distribute(url)
    try:
        yield url
    finally:
        await citus_cluster.drop(url)


@pytest.fixture(scope="package")
def cluster_server(cluster_url: str) -> Iterator[Server]:
    """`hearthlog serve --database-url <coordinator>`, fast bots and sweeps."""
    env = {**FAST, "HEARTHLOG_EXTRA_GAMES": EXTRA_GAMES}
    with serving(cluster_url, startup_seconds=STARTUP_SECONDS, env=env) as base:
        yield base


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> dict[str, Any]:
    """This test's measured figures, printed at the end of the run (tests/conftest.py)."""
    numbers: dict[str, Any] = {}
    request.node.user_properties.append((FIGURES, numbers))
    return numbers
