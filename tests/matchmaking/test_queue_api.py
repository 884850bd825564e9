"""The queue's routes on a real server: two players ask to play and meet at a table; the stream
says so; refusals name the problem (slow: a server process)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import msgspec
import pytest

from tests.servers import Server, served_copy

pytestmark = pytest.mark.slow
FAST = {"HEARTHLOG_QUEUE_SECONDS": "0.2", "HEARTHLOG_HEARTBEAT_SECONDS": "1",
        "HEARTHLOG_STREAMS_PER_CLIENT": "1"}


@pytest.fixture(scope="module")
async def server(postgres_server_url: str, template_database: str) -> AsyncIterator[Server]:
    """A real server matching every 0.2 s."""
    async with served_copy(postgres_server_url, template_database, "queue", env=FAST) as running:
        yield running


def new_player(client: httpx.Client, name: str) -> dict[str, str]:
    """A player's Authorization header."""
    made = client.post("/players", json={"name": name})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


def events_until_seated(client: httpx.Client, ticket: str) -> list[tuple[str, dict[str, object]]]:
    """The queue stream's events (name, data) until it ends, which it does once seated."""
    found, event = [], None
    with client.stream("GET", "/queue/stream", params={"ticket": ticket}, timeout=60) as answer:
        assert answer.status_code == 200
        for line in answer.iter_lines():
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: "):
                found.append((event or "", msgspec.json.decode(line.removeprefix("data: "))))
    return found


def test_two_players_who_ask_to_play_meet_at_a_table_and_act_there_with_their_own_tokens(server: Server) -> None:
    with httpx.Client(base_url=server, timeout=30) as client:
        ash, bram = new_player(client, "Ash Queue"), new_player(client, "Bram Queue")
        asked = client.post("/queue", headers=ash, json={"game": "wick-and-ember", "seats": 2})
        assert asked.status_code == 201 and asked.json()["status"] == "waiting"
        ticket = client.post("/queue/stream-ticket", headers=ash).json()["ticket"]
        assert client.post("/queue", headers=bram, json={
            "game": "wick-and-ember", "seats": {"min": 2, "max": 3}}).status_code == 201
        events = events_until_seated(client, ticket)
        assert [name for name, _ in events][-1] == "seated"
        ash_at, bram_at = (client.get("/queue", headers=h).json() for h in (ash, bram))
        assert ash_at["match_id"] == bram_at["match_id"] == events[-1][1]["match_id"]
        view = client.get(f"/matches/{ash_at['match_id']}/view", headers=ash)
        assert view.status_code == 200, view.text
        assert view.json()["seat"] == ash_at["seat"]


def test_the_queue_refuses_what_it_cannot_do_naming_it(server: Server) -> None:
    with httpx.Client(base_url=server, timeout=30) as client:
        cole = new_player(client, "Cole Queue")
        ask = {"game": "wick-and-ember", "seats": 2, "rated": True}
        refusals = [
            (client.post("/queue", json=ask), 401, "player token"),
            (client.post("/queue", headers=cole, json={**ask, "colour": "red"}), 400, "colour"),
            (client.post("/queue", headers=cole, json={**ask, "seats": 0}), 400, "seats"),
            (client.post("/queue", headers=cole, json={**ask, "game": "chess"}), 422, "chess"),
            (client.get("/queue", headers=cole), 404, "not in the queue"),
            (client.delete("/queue", headers=cole), 404, "not in the queue"),
            (client.get("/queue/stream", params={"ticket": "x"}), 401, "ticket"),
            (client.get("/queue/stream", params={"ticket": "x"}, headers=cole), 400, "not both"),
        ]
        for answer, status, named in refusals:
            assert answer.status_code == status, answer.text
            assert named in answer.json()["detail"]
        assert client.post("/queue", headers=cole, json=ask).status_code == 201
        again = client.post("/queue", headers=cole, json=ask)
        assert again.status_code == 409 and "already in the queue" in again.json()["detail"]
        assert client.delete("/queue", headers=cole).status_code == 204
        assert client.get("/queue", headers=cole).status_code == 404


def test_a_queue_stream_takes_a_stream_slot_of_its_client(server: Server) -> None:
    with httpx.Client(base_url=server, timeout=30) as client:
        dana = new_player(client, "Dana Queue")
        ask = {"game": "wick-and-ember", "seats": 4, "options": {"match_length": "short"}}
        assert client.post("/queue", headers=dana, json=ask).status_code == 201
        with client.stream("GET", "/queue/stream", headers=dana) as first:
            assert first.status_code == 200
            with client.stream("GET", "/queue/stream", headers=dana) as second:
                assert second.status_code == 429
                assert "HEARTHLOG_STREAMS_PER_CLIENT" in second.read().decode()
        client.delete("/queue", headers=dana)
