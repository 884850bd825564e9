"""The hostile-client suite (issue #34): each file is named after one attack and proves the
server withstands it. Quick tests run in process or against one server per module; the heavy
ones (thousands of sockets, killed workers) are marked slow and record their figures, which
docs/reliability.md quotes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.reporting import FIGURES
from tests.servers import Server, copied_database, serving


@pytest.fixture(scope="module")
async def server_database(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """A migrated database of this module's own."""
    async with copied_database(postgres_server_url, template_database, "hostile") as url:
        yield url


@pytest.fixture(scope="module")
def server(server_database: str) -> Iterator[Server]:
    """A real `hearthlog serve` (granian, one worker) for one module."""
    with serving(server_database) as running:
        yield running


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> dict[str, Any]:
    """This test's figures, printed at the end of the run (as tests/reliability's are)."""
    numbers: dict[str, Any] = {}
    request.node.user_properties.append((FIGURES, numbers))
    return numbers
