"""The client openapi-python-client generates from the committed document registers an app as
the operator, lists it, and sends its key, against a real server; the RateLimit fields come back
as the document says (tests/api/test_generated_clients.py holds the generation itself)."""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from types import ModuleType

import pytest

from tests.api.test_generated_clients import python_client  # noqa: F401  (a fixture)
from tests.servers import Server, served_copy

pytestmark = pytest.mark.slow  # a generator and a real server
OPERATOR = "operator-secret-for-generated-clients"


@pytest.fixture(scope="module")
async def operated(postgres_server_url: str, template_database: str) -> AsyncIterator[Server]:
    """A real server started with an operator token."""
    async with served_copy(postgres_server_url, template_database, "apps", env={"HEARTHLOG_OPERATOR_TOKEN": OPERATOR}) as running:
        yield running


def operation(name: str) -> ModuleType:
    """A generated operation's module."""
    return importlib.import_module(f"hearthlog_client.api.{name}")


def test_the_generated_client_registers_an_app_and_calls_with_its_key(
        python_client, operated):  # noqa: F811  (the fixture imported above)
    """Given the generated client, when the operator registers an app and lists the apps, and
    the app lists the games with its key, then the app is listed without its key and the games'
    answer carries the app's own quota in RateLimit-Policy."""
    models = importlib.import_module("hearthlog_client.models")
    operator = python_client.AuthenticatedClient(base_url=str(operated), token=OPERATOR)
    made = operation("apps.create_app").sync(
        client=operator, body=models.NewAppBody(name="Generated Club", requests_per_minute=9))
    assert isinstance(made, models.AppCreated), made
    listed = operation("apps.list_apps").sync(client=operator)
    assert [app.name for app in listed.apps] == ["Generated Club"]
    keyed = python_client.Client(base_url=str(operated), headers={"X-Api-Key": made.key})
    games = operation("games.list_games").sync_detailed(client=keyed)
    assert games.status_code == 200
    assert games.headers["ratelimit-policy"].startswith('"requests";q=9;w=60')
    assert games.headers["ratelimit"].startswith('"requests";r=8;')
