"""The event store contract (tests/store/contract.py), run against every store we ship: the
memory store, the Postgres store, and the Postgres store on a real Citus cluster."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from service.store import EventStore, PostgresStore
from service.store.memory import MemoryStore
from service.store.provisioning import create_pool
from tests.citus import emptied
from tests.store.contract import StoreContract


class TestMemoryStore(StoreContract):
    """The in-memory store of the fast tests."""

    @pytest.fixture
    def store(self) -> EventStore:
        """A new empty memory store."""
        return MemoryStore()


class TestPostgresStore(StoreContract):
    """The Postgres store, on a fresh migrated database."""

    @pytest.fixture
    def store(self, pool: asyncpg.Pool) -> EventStore:
        """A Postgres store on the test's own database."""
        return PostgresStore(pool)


class TestCitusStore(StoreContract):
    """The Postgres store on a Citus coordinator, its tables distributed as `hearthlog
    distribute` places them (tests/citus.py: a coordinator and two workers on loopback)."""

    @pytest.fixture
    async def store(self, citus_database: str) -> AsyncIterator[EventStore]:
        """A Postgres store on the module's cluster database, emptied first."""
        await emptied(citus_database)
        pool = await create_pool(citus_database, min_size=1, max_size=4)
        try:
            yield PostgresStore(pool)
        finally:
            await pool.close()
