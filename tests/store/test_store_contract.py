"""The event store contract (tests/store/contract.py), run against every store we ship."""

from __future__ import annotations

import asyncpg
import pytest

from service.store import EventStore, PostgresStore
from service.store.memory import MemoryStore
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
