"""Tokens: random (at least 128 bits), stored only as hashes, compared in constant time, good for
one match and one role only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import random

import asyncpg
import pytest

from service import auth
from tests.reliability.tables import Table, open_table

TABLES = ["matches", "events", "seat_tokens", "commands"]


def bits(token: str) -> int:
    """How many random bits a URL-safe token carries."""
    return len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8


@pytest.fixture(scope="module")
async def tables(server) -> list[Table]:
    """Five started matches of two to four seats."""
    return [await open_table([server], 2 + n % 3, random.Random(n)) for n in range(5)]


def every_token(tables: list[Table]) -> list[str]:
    """The seat and host tokens of every table."""
    return [token for table in tables for token in [*table.tokens, table.host_token]]


async def test_every_token_is_distinct_and_carries_at_least_128_random_bits(tables):
    """Given seats and hosts of several matches, then all tokens differ and each has >= 128 bits."""
    tokens = every_token(tables)
    assert len(set(tokens)) == len(tokens)
    assert min(bits(token) for token in tokens) >= 128


async def test_the_database_keeps_only_hashes_of_tokens(tables, server_database):
    """Given the whole database as text, then no token appears in it, and each seat's row holds
    the SHA-256 of its token."""
    connection = await asyncpg.connect(server_database)
    try:
        dump = " ".join([str(row) for name in TABLES
                         for row in await connection.fetch(f"SELECT t::text FROM {name} t")])
        stored = {bytes(r["token_hash"]) for r in await connection.fetch(
            "SELECT token_hash FROM seat_tokens")}
    finally:
        await connection.close()
    tokens = every_token(tables)
    assert [t for t in tokens if t in dump or t.encode().hex() in dump] == []
    seat_tokens = [token for table in tables for token in table.tokens]
    assert {hashlib.sha256(t.encode()).digest() for t in seat_tokens} <= stored


def test_a_presented_token_is_compared_in_constant_time(monkeypatch):
    """Given a token checked against a stored hash, then hmac.compare_digest does the comparing
    (seat tokens are looked up by their SHA-256, never compared as text)."""
    calls, compare = [], hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        """Record the call, then compare."""
        calls.append((a, b))
        return compare(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    assert auth.same_token("secret", auth.token_hash("secret"))
    assert not auth.same_token("secret", auth.token_hash("other"))
    assert len(calls) == 2


ROUTES = [("GET", "/view"), ("GET", "/log"), ("GET", "/legal-actions"), ("POST", "/commands"),
          ("POST", "/concede"), ("POST", "/start"), ("GET", "/replay/1"), ("GET", "/replay/1?seat=0"),
          ("GET", "/stream")]


async def test_a_token_of_one_match_is_refused_on_another(tables):
    """Given the seat and host tokens of one match, when used on every route of another, then
    401 everywhere (not a spectator's view) and the other match does not change."""
    mine, theirs = tables[0], tables[1]
    before = (await theirs.spectator().get(f"/matches/{theirs.match_id}/view")).json()
    for token in [*mine.tokens, mine.host_token]:
        for method, route in ROUTES:
            answer = await theirs.spectator().request(
                method, f"/matches/{theirs.match_id}{route}", json={"command": {"type": "concede"}},
                headers={"authorization": f"Bearer {token}"})
            assert answer.status_code == 401, (route, answer.text)
    after = (await theirs.spectator().get(f"/matches/{theirs.match_id}/view")).json()
    assert after["version"] == before["version"]


async def test_a_seat_token_acts_and_sees_only_for_its_own_seat(tables):
    """Given a seat that is not to act, then its token cannot play, its legal actions are empty
    and its view shows its own hand; the host token cannot act and sees what a spectator sees."""
    table = tables[0]
    url = f"/matches/{table.match_id}"
    view = (await table.spectator().get(f"{url}/view")).json()
    waiting = 1 - view["board"]["turn"]
    client = table.seat_client(waiting)
    played = await client.post(f"{url}/commands",
                               json={"command": {"type": "play", "card": "gale", "target": 0}})
    assert played.status_code in (409, 422) and played.json()["detail"]
    assert (await client.get(f"{url}/legal-actions")).json()["actions"] == []
    own = (await client.get(f"{url}/view")).json()
    assert own["seat"] == waiting and own["board"]["you"] == waiting
    assert own["board"]["seats"][waiting]["cards_in_hand"] == len(own["board"]["hand"])
    host = {"authorization": f"Bearer {table.host_token}"}
    as_host = (await table.spectator().get(f"{url}/view", headers=host)).json()
    assert as_host["seat"] is None and as_host["board"] == view["board"]
    for method, route in [("GET", "/legal-actions"), ("POST", "/commands"), ("POST", "/concede")]:
        answer = await table.spectator().request(method, f"{url}{route}", headers=host,
                                                 json={"command": {"type": "concede"}})
        assert answer.status_code == 403, answer.text
    assert (await table.spectator().get(f"{url}/view")).json()["version"] == view["version"]
