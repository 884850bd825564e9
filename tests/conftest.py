"""Shared fixtures: one Postgres server per session, and a clean migrated database per test.

The server is ``HEARTHLOG_TEST_DATABASE_URL`` (an admin URL on a server where databases may be
created) when set; else a testcontainers Postgres when a Docker engine answers; else an embedded
Postgres in a temporary folder. The schema is migrated once into a template database, and each
test that asks for ``database_url`` gets its own copy of it.

Tests on a real Citus cluster ask for ``citus_cluster`` or ``citus_database`` (tests/citus.py: built
once into a cache outside the clone, a coordinator and two workers per test process).

Every session carries the test games Tally (tests/tally, two rules versions) and Hexes
(tests/core/hexes.py, reaction windows) beside the real
games, so whatever runs over every registered game runs over it too.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import pytest

import tests.core.hexes
import tests.tally  # noqa: F401  (registers the test game Tally, rules versions 1 and 2)
from service.store.migrations import apply_migrations
from service.store.provisioning import (
    create_database,
    create_pool,
    drop_database,
    temporary_embedded,
)
from tests import reporting, sampling
from tests.citus import citus_cluster, citus_database  # noqa: F401  (fixtures: a Citus cluster)

# A support module of a sampling test: its asserts report in full.
pytest.register_assert_rewrite("tests.domain.deathwick.random_matches")

_RUN = uuid.uuid4().hex[:8]
_numbers = itertools.count(1)
_FIGURES: dict[str, dict[str, Any]] = {}


def pytest_report_header() -> str:
    """The run's sampling seed, first thing (tests/sampling.py)."""
    return sampling.header()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed sampling test's report carries the command that replays it."""
    outcome = yield
    reporting.replay_section(item, outcome.get_result())


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Gather the reliability figures a test's report carries (from any worker process)."""
    if report.when == "call" and (numbers := reporting.figures_of(report)):
        _FIGURES[report.nodeid.rpartition("::")[2]] = numbers


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the reliability figures of the run (docs/reliability.md), and the sampling seed
    again (the header is not shown under -q)."""
    reporting.write_figures(terminalreporter, _FIGURES)
    terminalreporter.write_line(sampling.header())


@pytest.fixture(scope="session")
async def postgres_server_url() -> AsyncIterator[str]:
    """An admin URL of the session's Postgres server."""
    if url := os.environ.get("HEARTHLOG_TEST_DATABASE_URL"):
        yield url
        return
    with _container() if _docker_answers() else temporary_embedded("hearthlog-test-pg-") as url:
        await _skip_durability(url)
        yield url


def _docker_answers() -> bool:
    """Whether a Docker engine answers a ping within two seconds."""
    try:
        import docker

        docker.from_env(timeout=2).ping()
    except Exception:
        return False
    return True


@contextlib.contextmanager
def _container() -> Iterator[str]:
    """A throwaway Postgres container's URL."""
    try:
        from testcontainers.community.postgres import PostgresContainer
    except ImportError:  # testcontainers before the community split
        from testcontainers.postgres import PostgresContainer

    with PostgresContainer("postgres:16-alpine", driver=None) as container:
        yield container.get_connection_url()


async def _skip_durability(url: str) -> None:
    """A throwaway server need not survive a crash: no fsync makes each test database 4x faster."""
    conn = await asyncpg.connect(url)
    try:
        for setting in ("fsync = off", "synchronous_commit = off", "full_page_writes = off"):
            await conn.execute(f"ALTER SYSTEM SET {setting}")
        await conn.execute("SELECT pg_reload_conf()")
    finally:
        await conn.close()


@pytest.fixture(scope="session")
async def template_database(postgres_server_url: str) -> AsyncIterator[str]:
    """The name of a database migrated once for the session, copied by every test."""
    name = f"hearthlog_template_{_RUN}"
    url = await create_database(postgres_server_url, name)
    await apply_migrations(url)
    yield name
    await drop_database(postgres_server_url, name)


@pytest.fixture
async def database_url(postgres_server_url: str, template_database: str) -> AsyncIterator[str]:
    """The URL of a fresh, migrated database of this test's own, dropped afterwards."""
    name = f"test_{_RUN}_{next(_numbers)}"
    yield await create_database(postgres_server_url, name, template=template_database)
    await drop_database(postgres_server_url, name)


@pytest.fixture
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    """An asyncpg pool on this test's database, closed afterwards."""
    pool = await create_pool(database_url)
    yield pool
    await pool.close()
