"""Private tables: a match created private hands out an invite, and only the invite takes a seat."""

from __future__ import annotations

import asyncpg
import httpx


async def private_match(client: httpx.AsyncClient) -> dict:
    """A private two-seat match, as created."""
    answer = await client.post("/matches", json={"game": "wick-and-ember", "seats": 2,
                                                 "private": True})
    assert answer.status_code == 201, answer.text
    return answer.json()


async def test_a_seat_at_a_private_table_needs_its_invite(server, server_database):
    """Given a private match, when players join without the invite, with a wrong one or with
    another table's, then 403 naming the invite and nobody is seated; with the invite, 201; a
    bot's seat needs it too. The summary says the table is private, and the database keeps only
    the invite's hash."""
    async with httpx.AsyncClient(base_url=server) as client:
        created, other = await private_match(client), await private_match(client)
        invite, seats = created["invite"], f"/matches/{created['match_id']}/seats"
        assert len(invite) >= 43 and created["match"]["private"] is True
        for wrong in ({}, {"invite": "guess"}, {"invite": other["invite"]}):
            answer = await client.post(seats, json={"name": "Ash", **wrong})
            assert answer.status_code == 403, answer.text
            assert "invite" in answer.json()["detail"]
        assert (await client.post(seats, json={"bot": "random"})).status_code == 403
        assert (await client.get(f"/matches/{created['match_id']}")).json()["players"] == []
        assert (await client.post(seats, json={"name": "Ash", "invite": invite})).status_code == 201
        bot = await client.post(seats, json={"bot": "random", "invite": invite})
        assert bot.status_code == 201
    connection = await asyncpg.connect(server_database)
    try:
        stored = await connection.fetchval("SELECT invite_hash FROM matches WHERE match_id = $1",
                                           created["match_id"])
        dumped = await connection.fetchval(
            "SELECT string_agg(m::text, '') FROM matches m WHERE match_id = $1", created["match_id"])
    finally:
        await connection.close()
    assert stored is not None and invite not in dumped
    assert invite not in server.output.read_text()


async def test_a_public_table_needs_no_invite(server):
    """Given a match created without private, then it says so, its answer has no invite, and a
    seat is taken without one."""
    async with httpx.AsyncClient(base_url=server) as client:
        created = (await client.post("/matches", json={"game": "wick-and-ember", "seats": 2})).json()
        assert created["invite"] is None and created["match"]["private"] is False
        joined = await client.post(f"/matches/{created['match_id']}/seats", json={"name": "Ash"})
    assert joined.status_code == 201
