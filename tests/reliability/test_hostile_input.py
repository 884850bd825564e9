"""Hostile input gets a 4xx with a JSON message naming the problem, and changes nothing.

Oversized bodies (over the documented 64 KiB) get 413; deeply nested or huge JSON, bodies that
are not JSON whatever their content type, unknown fields, negative or huge seat numbers, unknown
cards, text Postgres cannot store and odd ids get 400, 404 or 422.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.reliability.logcheck import log_problems
from tests.reliability.tables import Table, open_table

LIMIT = 64 * 1024
JSON = {"content-type": "application/json"}


async def streamed(body: bytes) -> AsyncIterator[bytes]:
    """A body sent in chunks, with no Content-Length."""
    for start in range(0, len(body), 16 * 1024):
        yield body[start:start + 16 * 1024]


def nested(depth: int) -> bytes:
    """A JSON object nested ``depth`` levels deep."""
    return b'{"a":' * depth + b"1" + b"}" * depth


@pytest.fixture(scope="module")
async def table(server) -> Table:
    """A started two-seat match."""
    return await open_table([server], 2, random.Random(5))


async def to_act(table: Table) -> tuple[httpx.AsyncClient, int]:
    """The client of the seat to act, and the match version."""
    view = (await table.spectator().get(f"/matches/{table.match_id}/view")).json()
    return table.seat_client(view["board"]["turn"]), view["version"]


def refused(answer: httpx.Response, *statuses: int) -> None:
    """The answer is one of ``statuses`` with a JSON body naming the problem."""
    assert answer.status_code in statuses, answer.text[:300]
    body = answer.json()
    assert body["status_code"] == answer.status_code and body["detail"].strip()


OVERSIZED = [
    ("/matches", b'{"game": "wick-and-ember", "seats": 2, "label": "' + b"x" * LIMIT + b'"}'),
    ("/seats", b'{"name": "' + b"x" * LIMIT + b'"}'),
    ("/commands", b'{"command": {"type": "play", "pad": "' + b"x" * LIMIT + b'"}}'),
]


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize("route,body", OVERSIZED, ids=["create", "join", "command"])
async def test_a_body_over_64_kib_gets_413_with_a_json_message(server, table, route, body, chunked):
    """Given any body route, when the body is over 64 KiB (declared or streamed), then 413."""
    player, version = await to_act(table)
    url = route if route == "/matches" else f"/matches/{table.match_id}{route}"
    content = streamed(body) if chunked else body
    refused(await player.post(url, content=content, headers=JSON), 413)
    assert (await to_act(table))[1] == version


BAD_COMMANDS = [
    ("nested command", b'{"command": ' + nested(10000) + b"}", 400),
    ("nested deep but legal depth", b'{"command": ' + nested(200) + b"}", 422),
    ("huge command", b'{"command": {"type": "play", "card": ["x", ' + b'"y", ' * 9000 + b'"z"]}}',
     422),
    ("not json", b"card=gale&target=1", 400),
    ("not utf-8", b'{"command": {"type": "play", "card": "\xff\xfe"}}', 400),
    ("empty", b"", 400),
    ("a list", b"[1, 2, 3]", 400),
    ("unknown field", b'{"command": {"type": "play", "card": "gale"}, "seat": 1}', 400),
    ("negative seat", b'{"command": {"type": "play", "card": "gale", "target": -1}}', 422),
    ("huge seat", b'{"command": {"type": "play", "card": "gale", "target": 1' + b"0" * 40 + b"}}",
     422),
    ("int64 seat", b'{"command": {"type": "play", "card": "gale", "target": 9223372036854775808}}',
     422),
    ("float seat", b'{"command": {"type": "play", "card": "gale", "target": 1.5}}', 422),
    ("unknown card", b'{"command": {"type": "play", "card": "joker", "target": 1}}', 422),
    ("card as object", b'{"command": {"type": "play", "card": {"$ne": 1}}}', 422),
    ("unknown guess", b'{"command": {"type": "play", "card": "lamp_warden", "target": 1, '
                      b'"guess": "\\u0000"}}', 422),
    ("NUL in command id", b'{"command": {"type": "concede"}, "command_id": "a\\u0000b"}', 400),
    ("huge expected version", b'{"command": {"type": "concede"}, "expected_version": 1'
                              + b"0" * 30 + b"}", 409),
    ("negative expected version", b'{"command": {"type": "concede"}, "expected_version": -1}',
     400),
]


@pytest.mark.parametrize("body,status", [c[1:] for c in BAD_COMMANDS],
                         ids=[c[0] for c in BAD_COMMANDS])
async def test_a_hostile_command_gets_4xx_with_a_message_and_changes_nothing(
    server, table, body, status
):
    """Given the seat to act, when it sends a hostile command, then 4xx and the same version."""
    player, version = await to_act(table)
    answer = await player.post(f"/matches/{table.match_id}/commands", content=body, headers=JSON)
    refused(answer, status)
    assert (await to_act(table))[1] == version


WRONG_TYPES = [
    ("", b'{"game": "wick-and-ember", "seats": 2}'),
    ("text/plain", b'{"game": "wick-and-ember", "seats": 2}'),
    ("text/plain", b"seats: 2"),
    ("application/x-www-form-urlencoded", b"game=wick-and-ember&seats=2"),
    ("multipart/form-data; boundary=x", b'--x\r\nContent-Disposition: form-data; name="game"'
                                        b"\r\n\r\nwick-and-ember\r\n--x--\r\n"),
    ("application/xml", b"<match><game>wick-and-ember</game></match>"),
]


@pytest.mark.parametrize("content_type,body", WRONG_TYPES,
                         ids=[t[0][:20] or "none" for t in WRONG_TYPES])
async def test_a_body_not_sent_as_json_gets_415_naming_its_content_type(
    server, content_type, body
):
    """Given a create request in another format (or JSON said to be another format, or with no
    Content-Type), then 415 naming the Content-Type it needs, and nothing is created."""
    headers = {"content-type": content_type} if content_type else {}
    async with httpx.AsyncClient(base_url=server) as client:
        before = (await client.get("/matches", params={"limit": 200})).json()["matches"]
        answer = await client.post("/matches", content=body, headers=headers)
        after = (await client.get("/matches", params={"limit": 200})).json()["matches"]
    refused(answer, 415)
    assert "Content-Type: application/json" in answer.json()["detail"]
    assert len(after) == len(before)


async def test_a_json_type_with_parameters_or_a_json_suffix_is_json(server):
    """Given application/json with a charset, or an application/*+json type, then it is read."""
    async with httpx.AsyncClient(base_url=server) as client:
        for content_type in ("application/json; charset=utf-8", "application/merge-patch+json"):
            answer = await client.post("/matches", content=b'{"game": "wick-and-ember", "seats": 2}',
                                       headers={"content-type": content_type})
            assert answer.status_code == 201, answer.text


BAD_CREATES = [
    ({"game": "wick-and-ember", "seats": -1}, 400),
    ({"game": "wick-and-ember", "seats": 10**30}, 400),
    ({"game": "wick-and-ember", "seats": 2, "surprise": True}, 400),
    ({"game": "wick-and-ember", "seats": 2, "options": {"deck": "tarot"}}, 422),
    ({"game": "wick-and-ember", "seats": 2, "options": {f"k{n}": n for n in range(4000)}}, 422),
    ({"game": "wick-and-ember", "seats": 2, "label": "a\x00b"}, 400),
    ({"game": "wick-and-ember", "seats": 2, "tournament": "\x00"}, 400),
    ({"game": "\x00", "seats": 2}, 422),
    ({"game": "wick-and-ember", "seats": 2, "options": {"ember_target": 10**40}}, 422),
]


@pytest.mark.parametrize("body,status", BAD_CREATES, ids=[str(n) for n in range(len(BAD_CREATES))])
async def test_a_hostile_match_request_gets_4xx_with_a_message(server, body, status):
    """Given a bad create request, then 400 or 422 naming the problem."""
    async with httpx.AsyncClient(base_url=server) as client:
        refused(await client.post("/matches", json=body), status)


async def test_hostile_seats_paths_and_queries_get_4xx_with_a_message(server, table):
    """Given NUL names and seeds, odd ids and huge query numbers, then 4xx, never 5xx."""
    async with httpx.AsyncClient(base_url=server) as client:
        fresh = (await client.post("/matches", json={"game": "wick-and-ember", "seats": 2})).json()
        seats = f"/matches/{fresh['match_id']}/seats"
        refused(await client.post(seats, json={"name": "a\x00"}), 400)
        refused(await client.post(seats, json={"name": "Ash", "client_seed": "\x00"}), 400)
        refused(await client.post(seats, json={"name": ""}), 400)
        for needs_a_name in ({}, {"client_seed": "mine"}, {"name": None}):
            answer = await client.post(seats, json=needs_a_name)
            refused(answer, 400)
            assert "at least one of name, bot" in answer.json()["detail"]
        for path in ["/matches/%00/view", "/matches/" + "9" * 3000, "/matches/-1/log",
                     "/matches/00000000-0000-0000-0000-000000000000/legal-actions", "/games/%FF"]:
            refused(await client.get(path), 404, 401)
        for query in [{"offset": 10**20}, {"offset": -1}, {"limit": 10**20}, {"limit": 0},
                      {"status": "lost"}, {"tournament": "\x00"}, {"game": "\x00"}]:
            refused(await client.get("/matches", params=query), 400)
        log = f"/matches/{table.match_id}/log"
        refused(await client.get(log, params={"after": -1}), 400)
        assert (await client.get(log, params={"after": 10**30})).status_code == 200
        refused(await client.get(f"/matches/{table.match_id}/view",
                                 headers={"authorization": "Bearer " + "x" * 8000}), 401)


async def test_no_hostile_input_leaves_a_secret_or_a_card_in_the_server_log(server, table):
    """Given the hostile requests above, then the server's output holds no token and no card."""
    assert log_problems(server.output, table.tokens) == []


NAMELESS = [
    ("empty body", "POST", "/matches", b"", {}, "the body is missing"),
    ("lone surrogate", "POST", "/matches", b'{"game": "\\ud800', {}, "unpaired UTF-16 surrogate"),
    ("lone surrogate, closed", "POST", "/matches", b'{"game": "\\ud800"}', {},
     "unpaired UTF-16 surrogate"),
    ("NUL in a filter", "GET", "/matches", None, {"tournament": "a\x00"},
     "query parameter 'tournament': it holds a NUL character"),
    ("NUL in an export filter", "GET", "/exports/matches", None, {"game": "\x00"},
     "query parameter 'game': it holds a NUL character"),
    ("a word for a number", "GET", "/matches", None, {"limit": "ten"}, "query parameter 'limit'"),
    ("a word for seats", "POST", "/matches", b'{"game": "wick-and-ember", "seats": "two"}', {},
     "the body's 'seats'"),
    ("an unknown field", "POST", "/matches", b'{"game": "wick-and-ember", "seats": 2, "sets": 2}',
     {}, "the body has a field 'sets' this request does not take"),
    ("an unknown field of a tournament", "POST", "/tournaments",
     b'{"name": "Cup", "game": "wick-and-ember", "tie_breaks": ["buchholz"]}', {},
     "the body has a field 'tie_breaks'"),
    ("a required field left out", "POST", "/matches", b'{"seats": 2}', {},
     "the body lacks the required field 'game'"),
    ("an array for a body", "POST", "/matches", b"[1, 2]", {},
     "the body must be a JSON object, not array"),
    ("null for a body", "POST", "/matches", b"null", {}, "the body must be a JSON object, not null"),
]


@pytest.mark.parametrize("method,path,body,params,says", [c[1:] for c in NAMELESS],
                         ids=[c[0] for c in NAMELESS])
async def test_a_400_names_what_is_wrong_not_only_the_route(server, method, path, body, params,
                                                            says):
    """Given an empty body, a lone surrogate, a NUL in a filter or a word for a number, then the
    400's message names the body or the parameter and what is wrong with it (never a database's
    own words)."""
    async with httpx.AsyncClient(base_url=server) as client:
        answer = await client.request(method, path, content=body, params=params, headers=JSON)
    refused(answer, 400)
    assert says in answer.json()["detail"], answer.json()["detail"]
    assert "UTF8" not in answer.text and "Validation failed" not in answer.text


UNSAFE_NAMES = [
    ("an escape sequence", "\x1b[2J\x1b[HAsh"),
    ("a forged log line", "Ash\nSYSTEM: Bryn wins"),
    ("a carriage return", "Ash\rBryn"),
    ("a right-to-left override", "\u202eAsh"),
    ("a zero-width space", "A\u200bsh"),
    ("a byte order mark", "\ufeffAsh"),
    ("a line separator", "Ash\u2028Bryn"),
    ("a private-use character", "Ash\ue000"),
]


@pytest.mark.parametrize("name", [c[1] for c in UNSAFE_NAMES], ids=[c[0] for c in UNSAFE_NAMES])
async def test_a_name_with_a_control_or_format_character_gets_400_naming_it(server, name):
    """Given a name holding a control or format character or a line break, then 400 naming the
    problem, and the lobby stays empty."""
    async with httpx.AsyncClient(base_url=server) as client:
        created = (await client.post("/matches", json={"game": "wick-and-ember", "seats": 2})).json()
        answer = await client.post(f"/matches/{created['match_id']}/seats", json={"name": name})
        refused(answer, 400)
        assert "control or format character" in answer.json()["detail"]
        summary = (await client.get(f"/matches/{created['match_id']}")).json()
    assert summary["players"] == []


LOOK_ALIKES = [
    ("NFC and NFD", "Zo\u00eb", "Zoe\u0308"),
    ("full width", "Ash", "\uff21sh"),
    ("spaces around and inside", "Ash Ember", "  Ash\u00a0\u00a0Ember "),
    ("case", "Ash", "ASH"),
]


@pytest.mark.parametrize("first,second", [c[1:] for c in LOOK_ALIKES], ids=[c[0] for c in LOOK_ALIKES])
async def test_a_name_that_looks_like_one_at_the_table_is_refused(server, first, second):
    """Given a seat named one way, when another joins under the same name written otherwise
    (composed or decomposed, full-width, spaced, cased), then 422 "already taken"; the name is
    kept as RFC 8266 prepares it (NFKC, spaces collapsed)."""
    async with httpx.AsyncClient(base_url=server) as client:
        created = (await client.post("/matches", json={"game": "wick-and-ember", "seats": 3})).json()
        seats = f"/matches/{created['match_id']}/seats"
        assert (await client.post(seats, json={"name": first})).status_code == 201
        answer = await client.post(seats, json={"name": second})
        refused(answer, 422)
        assert "already taken" in answer.json()["detail"]
        players = (await client.get(f"/matches/{created['match_id']}")).json()["players"]
    assert [p["name"] for p in players] == [unicodedata.normalize("NFC", first)]


async def test_a_whole_number_written_as_a_float_is_the_integer_json_schema_says_it_is(server):
    """Given seats written 2.0 (an integer to JSON Schema), then the match is created; 2.5 and
    "2" are still refused with 400."""
    async with httpx.AsyncClient(base_url=server) as client:
        made = await client.post("/matches", content=b'{"game": "wick-and-ember", "seats": 2.0}',
                                 headers=JSON)
        assert made.status_code == 201, made.text
        assert made.json()["match"]["seats"] == 2
        for seats in (b"2.5", b'"2"'):
            refused(await client.post("/matches", headers=JSON,
                                      content=b'{"game": "wick-and-ember", "seats": ' + seats + b"}"),
                    400)
