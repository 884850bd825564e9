"""The client openapi-python-client generates from the committed document queues two players,
follows their wait until the matcher seats them at one table, and leaves a queue, against a real
server (tests/api/test_generated_clients.py holds the generation itself)."""

from __future__ import annotations

import importlib
import time
from collections.abc import AsyncIterator
from types import ModuleType
from typing import Any

import pytest

from tests.api.test_generated_clients import python_client  # noqa: F401  (a fixture)
from tests.servers import Server, served_copy

pytestmark = pytest.mark.slow  # a generator and a real server
DEADLINE = 60  # seconds: a guard against a table never formed, not a measure


@pytest.fixture(scope="module")
async def matching(postgres_server_url: str, template_database: str) -> AsyncIterator[Server]:
    """A real server matching every 0.2 s."""
    async with served_copy(postgres_server_url, template_database, "gqueue", env={"HEARTHLOG_QUEUE_SECONDS": "0.2"}) as running:
        yield running


def operation(name: str) -> ModuleType:
    """A generated operation's module."""
    return importlib.import_module(f"hearthlog_client.api.{name}")


def player(client: ModuleType, server: Server, name: str) -> Any:
    """A generated client holding a new player's token."""
    models = importlib.import_module("hearthlog_client.models")
    made = operation("players.create_player").sync(
        client=client.Client(base_url=str(server)), body=models.NewPlayer(name=name))
    assert isinstance(made, models.PlayerCreated), made
    return client.AuthenticatedClient(base_url=str(server), token=made.token)


def test_the_generated_client_queues_two_players_who_meet_at_one_table(
        python_client, matching):  # noqa: F811  (the fixture imported above)
    models = importlib.import_module("hearthlog_client.models")
    ash, bram = player(python_client, matching, "Ash Gen"), player(python_client, matching, "Bram Gen")
    ask = models.JoinQueue(game="wick-and-ember", seats=models.SeatRange(min_=2, max_=3))
    for who in (ash, bram):
        asked = operation("matchmaking.join_queue").sync(client=who, body=ask)
        assert isinstance(asked, models.QueueStatus), asked
    ticket = operation("matchmaking.queue_stream_ticket").sync(client=ash)
    assert isinstance(ticket, models.QueueTicket) and ticket.ticket
    until = time.monotonic() + DEADLINE
    statuses = [operation("matchmaking.queue_status").sync(client=who) for who in (ash, bram)]
    while any(s.status != "seated" for s in statuses) and time.monotonic() < until:
        time.sleep(0.1)
        statuses = [operation("matchmaking.queue_status").sync(client=who) for who in (ash, bram)]
    assert [s.status for s in statuses] == ["seated", "seated"]
    assert statuses[0].match_id == statuses[1].match_id
    assert {statuses[0].seat, statuses[1].seat} == {0, 1}


def test_the_generated_client_leaves_the_queue(python_client, matching):  # noqa: F811
    models = importlib.import_module("hearthlog_client.models")
    cole = player(python_client, matching, "Cole Gen")
    ask = models.JoinQueue(game="wick-and-ember", seats=4, rated=True)
    assert operation("matchmaking.join_queue").sync_detailed(client=cole, body=ask).status_code == 201
    assert operation("matchmaking.leave_queue").sync_detailed(client=cole).status_code == 204
    assert operation("matchmaking.queue_status").sync_detailed(client=cole).status_code == 404
    stream = operation("matchmaking.stream_queue").sync_detailed(client=cole)
    assert stream.status_code == 404  # no wait to follow
