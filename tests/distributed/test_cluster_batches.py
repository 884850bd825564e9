"""Appends sent together on a real Citus cluster: a batch's statements name matches placed on
different workers, in one transaction the coordinator commits on each (tests/store/batched.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from service.store.provisioning import create_pool
from tests.store import batched

pytestmark = pytest.mark.slow


@pytest.fixture
async def cluster_pool(cluster_url: str) -> AsyncIterator[asyncpg.Pool]:
    """A pool on the distributed database's coordinator."""
    pool = await create_pool(cluster_url, min_size=1, max_size=4)
    try:
        yield pool
    finally:
        await pool.close()


async def test_appends_at_once_go_in_one_batch_across_workers(cluster_pool: asyncpg.Pool) -> None:
    await batched.appends_at_once_go_in_one_batch(cluster_pool)


async def test_a_refused_append_in_a_batch_on_the_cluster_writes_nothing(
    cluster_pool: asyncpg.Pool,
) -> None:
    await batched.a_refused_append_writes_nothing_and_the_rest_land(cluster_pool)


async def test_a_failing_append_in_a_batch_on_the_cluster_fails_alone(
    cluster_pool: asyncpg.Pool,
) -> None:
    await batched.a_failing_append_fails_alone(cluster_pool)
