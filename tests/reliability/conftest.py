"""Reliability fixtures: real servers on loopback over a real Postgres, and the run's figures.

Each test that measures something records its figures (load held, faults injected, inputs tried,
what was lost); they are printed at the end of the run and written to
build/reliability-figures.json, from which docs/reliability.md quotes the last run.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from service.store.provisioning import create_database, drop_database
from tests.reporting import FIGURES
from tests.servers import Server, serving


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> dict[str, Any]:
    """A dict of this test's figures, carried by its report (from a worker process too) and
    printed at the end of the run (tests/conftest.py)."""
    numbers: dict[str, Any] = {}
    request.node.user_properties.append((FIGURES, numbers))
    return numbers


async def fresh_database(server_url: str, template: str, prefix: str) -> tuple[str, str]:
    """A new migrated database: (name, URL)."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    return name, await create_database(server_url, name, template=template)


@pytest.fixture(scope="session")
async def server_database(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """A migrated database shared by the reliability tests' servers (each test has its own
    matches)."""
    name, url = await fresh_database(postgres_server_url, template_database, "rel")
    yield url
    await drop_database(postgres_server_url, name)


@pytest.fixture(scope="session")
def server(server_database: str) -> Iterator[Server]:
    """A real `hearthlog serve` process, shared by the reliability tests."""
    with serving(server_database) as running:
        yield running


@pytest.fixture(scope="session")
def second_server(server_database: str) -> Iterator[Server]:
    """A second server process on the same database as ``server``."""
    with serving(server_database) as running:
        yield running


@pytest.fixture
async def database(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """A migrated database of this test's own (for tests that start their own servers)."""
    name, url = await fresh_database(postgres_server_url, template_database, "rel")
    yield url
    await drop_database(postgres_server_url, name)
