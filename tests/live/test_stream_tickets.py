"""What a browser needs of the stream: a short-lived ticket instead of the Authorization header
(EventSource cannot send one), and the seat's legal actions in each of its stream messages."""

from __future__ import annotations

import json
import time

import httpx

from service import tickets
from service.auth import token_hash
from service.cli.play import SseParser
from tests.api.players import seated_match
from tests.live.stream_client import wait_for


async def first_update(base: str, match_id: str, query: str = "", headers=None) -> dict:
    """The first message of a stream opened with the given query and headers."""
    parser = SseParser()
    async with httpx.AsyncClient(base_url=base, timeout=30) as client, client.stream(
        "GET", f"/matches/{match_id}/stream{query}", headers=headers or {}
    ) as answer:
        assert answer.status_code == 200, await answer.aread()
        async for line in answer.aiter_lines():
            message = parser.feed(line)
            if message is not None:
                return json.loads("\n".join(message.data))
    raise AssertionError("the stream ended without a message")


async def test_a_ticket_opens_the_seats_own_stream_with_its_private_lines_and_legal_actions(live_server):
    """Given a started match, when Ash trades her token for a ticket and opens the stream with it
    alone, then the stream is Ash's: her private lines, her view, and her legal actions, the
    same as the legal-actions route answers at that version."""
    created, (ash, bryn) = await seated_match(live_server, ["Ash", "Bryn"])
    match_id = created["match_id"]
    issued = await ash.client.post(f"/matches/{match_id}/stream-ticket")
    assert issued.status_code == 201, issued.text
    assert issued.json()["seat"] == 0
    update = await first_update(live_server, match_id, f"?ticket={issued.json()['ticket']}")
    assert update["view"]["seat"] == 0
    assert any(line["private"] for line in update["log"])
    legal = await ash.get("/legal-actions")
    if legal["version"] == update["version"]:
        assert update["actions"] == legal["actions"]
    assert update["actions"] is not None
    spectator = await first_update(live_server, match_id)
    assert spectator["actions"] is None
    assert not any(line["private"] for line in spectator["log"])
    await ash.close(), await bryn.close()


async def test_a_forged_expired_or_foreign_ticket_is_refused_before_streaming(live_server):
    """Given a ticket for Ash in one match, when it is altered, used on another match, made
    with the wrong key or expired, or sent beside a token, then the stream answers 401 (400 for
    both at once) and nothing streams; the host's token and no token get no ticket."""
    created, (ash, bryn) = await seated_match(live_server, ["Ash", "Bryn"])
    other, (cole, dana) = await seated_match(live_server, ["Cole", "Dana"])
    match_id = created["match_id"]
    ticket = (await ash.client.post(f"/matches/{match_id}/stream-ticket")).json()["ticket"]
    seat, expires, mac = ticket.split(".")
    forged = {
        "another seat": f"1.{expires}.{mac}",
        "a later expiry": f"{seat}.{int(expires) + 600}.{mac}",
        "a wrong key": tickets.issue(match_id, 0, b"not the key", time.time())[0],
        "expired": tickets.issue(match_id, 0, token_hash(ash.token), time.time() - 3600)[0],
        "not a ticket": "hello",
    }
    async with httpx.AsyncClient(base_url=live_server, timeout=30) as client:
        for why, bad in forged.items():
            answer = await client.get(f"/matches/{match_id}/stream", params={"ticket": bad})
            assert answer.status_code == 401, (why, answer.text)
            assert "ticket" in answer.json()["detail"]
        foreign = await client.get(f"/matches/{other['match_id']}/stream", params={"ticket": ticket})
        assert foreign.status_code == 401
        both = await client.get(f"/matches/{match_id}/stream", params={"ticket": ticket},
                                headers={"authorization": f"Bearer {ash.token}"})
        assert both.status_code == 400
        host = await client.post(f"/matches/{match_id}/stream-ticket",
                                 headers={"authorization": f"Bearer {created['host_token']}"})
        assert host.status_code == 403
        nobody = await client.post(f"/matches/{match_id}/stream-ticket")
        assert nobody.status_code == 401
    for player in (ash, bryn, cole, dana):
        await player.close()


async def test_a_ticket_never_appears_in_the_servers_output(live_server):
    """Given a stream opened with a ticket, then the server's log (its access lines included)
    never shows the ticket nor the signature in it."""
    created, (ash, bryn) = await seated_match(live_server, ["Ash", "Bryn"])
    ticket = (await ash.client.post(f"/matches/{created['match_id']}/stream-ticket")).json()["ticket"]
    await first_update(live_server, created["match_id"], f"?ticket={ticket}")
    line = '"path":"/matches/{match_id}/stream","status":200'

    async def logged() -> str | None:  # a stream's access line is written when it closes
        text = live_server.output.read_text()
        return text if line in text else None

    output = await wait_for(logged, seconds=10)
    assert ticket.split(".")[2] not in output and ticket not in output
    await ash.close(), await bryn.close()

