"""The client openapi-python-client generates from the committed document makes players, seats
them with their own tokens, finishes their match and reads their pages and export, against a
real server (tests/api/test_generated_clients.py holds the generation itself)."""

from __future__ import annotations

import importlib
import json
from collections.abc import AsyncIterator
from types import ModuleType

import pytest

from tests.api.test_generated_clients import python_client  # noqa: F401  (a fixture)
from tests.servers import Server, served_copy

pytestmark = pytest.mark.slow  # a generator and a real server


@pytest.fixture(scope="module")
async def served(postgres_server_url: str, template_database: str) -> AsyncIterator[Server]:
    """A real server."""
    async with served_copy(postgres_server_url, template_database, "players") as running:
        yield running


def operation(name: str) -> ModuleType:
    """A generated operation's module."""
    return importlib.import_module(f"hearthlog_client.api.{name}")


def test_the_generated_client_seats_players_by_their_tokens_and_reads_their_pages(
        python_client, served):  # noqa: F811  (the fixture imported above)
    """Given the generated client, when two players are made, take the seats of a match with
    their own tokens (an empty body) and one concedes, then each player's token says who it is,
    the winner's matches list the match with its place, its tournaments are none, and its
    export is one line holding the match."""
    models = importlib.import_module("hearthlog_client.models")
    anyone = python_client.Client(base_url=str(served))
    made = [operation("players.create_player").sync(client=anyone, body=models.NewPlayer(name=n))
            for n in ("Ash", "Bryn")]
    assert all(isinstance(p, models.PlayerCreated) for p in made), made
    ash, bryn = (python_client.AuthenticatedClient(base_url=str(served), token=p.token)
                 for p in made)
    me = operation("players.get_me").sync(client=ash)
    assert isinstance(me, models.PlayerProfile) and me.player_id == made[0].player_id
    created = operation("matches.create_match").sync(
        client=anyone, body=models.CreateMatch(game="wick-and-ember", seats=2, rated=True))
    for seated in (ash, bryn):
        joined = operation("matches.join_match").sync(
            match_id=created.match_id, client=seated, body=models.JoinSeat())
        assert isinstance(joined, models.SeatAnswer), joined
    host = python_client.AuthenticatedClient(base_url=str(served), token=created.host_token)
    assert isinstance(operation("matches.start_match").sync(match_id=created.match_id,
                                                            client=host), models.MatchSummary)
    operation("matches.concede").sync(match_id=created.match_id, client=bryn)

    matches = operation("players.list_player_matches").sync(player_id=me.player_id,
                                                            client=anyone)
    entered = operation("players.list_player_tournaments").sync(player_id=me.player_id,
                                                                client=anyone)
    profile = operation("players.get_player").sync(player_id=made[1].player_id, client=anyone)
    exported = operation("players.export_player_matches").sync_detailed(
        player_id=me.player_id, client=anyone)

    assert [(m.match_id, m.seat, m.place, m.won) for m in matches.matches] == [
        (created.match_id, 0, 1, True)]
    assert entered.tournaments == [] and profile.name == "Bryn"
    lines = exported.content.decode().splitlines()
    assert exported.status_code == 200 and len(lines) == 1
    assert json.loads(lines[0])["header"]["match_id"] == created.match_id
