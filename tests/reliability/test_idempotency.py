"""Idempotency under retry: a resent command_id gets the first answer, and is applied once.

Two server processes share one database; a client that gave up waiting resends to either.
"""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.reliability.audit import audit, records
from tests.reliability.tables import Table, open_table


async def move(table: Table, with_version: bool = False) -> tuple[int, dict]:
    """The seat to act and a body for one of its legal commands, with a fresh command_id."""
    view = (await table.spectator().get(f"/matches/{table.match_id}/view")).json()
    seat = view["board"]["turn"]
    legal = (await table.seat_client(seat).get(f"/matches/{table.match_id}/legal-actions")).json()
    body = {"command": table.rng.choice(legal["actions"])["command"],
            "command_id": f"retry-{table.rng.getrandbits(40):010x}"}
    if with_version:
        body["expected_version"] = legal["version"]
    return seat, body


def post(table: Table, seat: int, body: dict, server: int) -> asyncio.Task:
    """Send a command for a seat through one server, as a task."""
    client = table.clients[seat][server]
    return asyncio.ensure_future(client.post(f"/matches/{table.match_id}/commands", json=body))


async def test_a_client_that_timed_out_gets_the_first_answer_from_either_server(
    server, second_server, server_database, figures
):
    """Given a command whose client gave up before the answer, when it is resent with the same
    command_id to the other server and then to both, then every answer is the stored first answer
    and the command's events are stored once."""
    table = await open_table([server, second_server], 2, random.Random(11))
    for _ in range(5):
        seat, body = await move(table)
        impatient = httpx.AsyncClient(base_url=server, headers=table.clients[seat][0].headers,
                                      timeout=httpx.Timeout(10, read=0.001))
        try:
            await impatient.post(f"/matches/{table.match_id}/commands", json=body)
        except httpx.ReadTimeout:
            pass  # gave up: the server may or may not have applied it
        await impatient.aclose()
        answers = [await post(table, seat, body, 1)]
        answers += await asyncio.gather(*(post(table, seat, body, n % 2) for n in range(6)))
        assert {a.status_code for a in answers} == {200}, [a.text for a in answers]
        assert {a.content for a in answers} == {(await records(server_database))[
            body["command_id"]][2]}
    assert await audit(server_database, [table.match_id]) == (await count(table), [])
    figures.update(commands=5, timed_out_then_resent=5 * 7, servers=2, applied_twice=0)


async def test_the_same_command_fired_at_both_servers_at_once_is_applied_once(
    server, second_server, server_database, figures
):
    """Given ten copies of one command (one command_id) racing through both servers, then all
    ten get the same 200 answer, byte for byte, and its events are stored once."""
    table = await open_table([server, second_server], 2, random.Random(12))
    for _ in range(5):
        seat, body = await move(table)
        answers = await asyncio.gather(*(post(table, seat, body, n % 2) for n in range(10)))
        assert [a.status_code for a in answers] == [200] * 10, [a.text for a in answers]
        assert len({a.content for a in answers}) == 1
    assert await audit(server_database, [table.match_id]) == (await count(table), [])
    figures.update(commands=5, racing_copies=5 * 10, servers=2, applied_twice=0)


async def test_copies_racing_with_an_expected_version_get_the_first_answer_not_a_clash(
    server, second_server, server_database
):
    """Given ten copies of one command with its expected_version racing through both servers,
    then the copies that lost the race get the winner's answer, not a 409."""
    table = await open_table([server, second_server], 2, random.Random(13))
    for _ in range(5):
        seat, body = await move(table, with_version=True)
        answers = await asyncio.gather(*(post(table, seat, body, n % 2) for n in range(10)))
        assert [a.status_code for a in answers] == [200] * 10, [a.text for a in answers]
        assert len({a.content for a in answers}) == 1
    assert await audit(server_database, [table.match_id]) == (await count(table), [])


async def count(table: Table) -> int:
    """The match's version (its number of events)."""
    return (await table.spectator().get(f"/matches/{table.match_id}/view")).json()["version"]
