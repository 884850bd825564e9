"""The players' tests run the whole app in process, on a fresh migrated database each, with
counted seeds and a stopped clock (tests.core.sources), so every run deals and stamps the same."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from service.http.app import create_app
from tests.core.sources import StoppedClock, counted_seeds


@pytest.fixture
def clock() -> StoppedClock:
    """The app's clock, which a test moves on where the order of times matters."""
    return StoppedClock()


@pytest.fixture
async def client(database_url: str, clock: StoppedClock) -> AsyncIterator[AsyncTestClient[Any]]:
    """A client of the app on this test's database."""
    app = create_app(database_url, seeds=counted_seeds("players"), clock=clock)
    async with AsyncTestClient(app) as client:
        yield client
