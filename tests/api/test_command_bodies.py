"""A command's body, refused as it always was: each malformed body gets the same status and the
same words, whatever reads it on the way (issue 33 asks the command path to cost less, never to
answer differently).

In process: the app over an in-memory store, a wick-and-ember match started, seat 0 to act.
The answers below were recorded from the route as it read the body at 63d6a16 (litestar's loose
decode, then ``strictly``, then ``decode_command``); a change to that path must keep them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from litestar.testing import TestClient

from service.http.app import create_app
from service.matches import MatchService
from service.store.memory import MemoryStore

PLAY = b'{"type": "play", "card": "lamp_warden", "target": 1, "guess": "gale"}'
BODIES: list[tuple[bytes, int, str]] = [
    (b'', 400,
     '{"detail": "the body is missing: send a JSON object", "extra": [{"key": "data", "message": "\'data\'", "source": "body"}], "status_code": 400}'),
    (b'{not json', 400,
     '{"detail": "the body is not valid JSON: object keys must be strings (byte 1)", "status_code": 400}'),
    (b'null', 400,
     '{"detail": "the body must be a JSON object, not null", "extra": [{"key": "data", "message": "Expected `object`, got `null`", "source": "body"}], "status_code": 400}'),
    (b'[]', 400,
     '{"detail": "the body must be a JSON object, not array", "extra": [{"key": "data", "message": "Expected `object`, got `array`", "source": "body"}], "status_code": 400}'),
    (b'1', 400,
     '{"detail": "the body must be a JSON object, not int", "extra": [{"key": "data", "message": "Expected `object`, got `int`", "source": "body"}], "status_code": 400}'),
    (b'"x"', 400,
     '{"detail": "the body must be a JSON object, not str", "extra": [{"key": "data", "message": "Expected `object`, got `str`", "source": "body"}], "status_code": 400}'),
    (b'{}', 400,
     '{"detail": "the body lacks the required field \'command\'", "extra": [{"key": "data", "message": "Object missing required field `command`", "source": "body"}], "status_code": 400}'),
    (b'{"command": "play"}', 400,
     '{"detail": "the body\'s \'command\': Expected `object`, got `str`", "extra": [{"key": "command", "message": "Expected `object`, got `str`", "source": "body"}], "status_code": 400}'),
    (b'{"command": null}', 400,
     '{"detail": "the body\'s \'command\': Expected `object`, got `null`", "extra": [{"key": "command", "message": "Expected `object`, got `null`", "source": "body"}], "status_code": 400}'),
    (b'{"command": []}', 400,
     '{"detail": "the body\'s \'command\': Expected `object`, got `array`", "extra": [{"key": "command", "message": "Expected `object`, got `array`", "source": "body"}], "status_code": 400}'),
    (b'{"command": {"type": "play", "card": "lamp_warden"}, "surprise": 1}', 400,
     '{"detail": "the body has a field \'surprise\' this request does not take (is it spelt as documented?)", "extra": [{"key": "data", "message": "Object contains unknown field `surprise`", "source": "body"}], "status_code": 400}'),
    (b'{"command": ' + PLAY + b', "expected_version": "2"}', 400,
     '{"detail": "the body does not fit the schema: Expected `int | null`, got `str` - at `$.expected_version`", "status_code": 400}'),
    (b'{"command": ' + PLAY + b', "expected_version": 2.5}', 400,
     '{"detail": "the body\'s \'expected_version\': Expected `int | null`, got `float`", "extra": [{"key": "expected_version", "message": "Expected `int | null`, got `float`", "source": "body"}], "status_code": 400}'),
    (b'{"command": ' + PLAY + b', "expected_version": -1}', 400,
     '{"detail": "the body\'s \'expected_version\': Expected `int` >= 0", "extra": [{"key": "expected_version", "message": "Expected `int` >= 0", "source": "body"}], "status_code": 400}'),
    (b'{"command": ' + PLAY + b', "expected_version": true}', 400,
     '{"detail": "the body\'s \'expected_version\': Expected `int | null`, got `bool`", "extra": [{"key": "expected_version", "message": "Expected `int | null`, got `bool`", "source": "body"}], "status_code": 400}'),
    (b'{"command": ' + PLAY + b', "expected_version": 1e400}', 400,
     '{"detail": "Number out of range - at `$[...]`", "status_code": 400}'),
    (b'{"command": ' + PLAY + b', "expected_version": 99999999999999999999999}', 409,
     '{"detail": "version clash: expected version 99999999999999999999999, the match is at version 7", "extra": {"current_version": 7}, "status_code": 409}'),
    (b'{"command": ' + PLAY + b', "command_id": ""}', 400,
     '{"detail": "the body\'s \'command_id\': Expected `str` of length >= 1", "extra": [{"key": "command_id", "message": "Expected `str` of length >= 1", "source": "body"}], "status_code": 400}'),
    (b'{"command": ' + PLAY + b', "command_id": 5}', 400,
     '{"detail": "the body\'s \'command_id\': Expected `str | null`, got `int`", "extra": [{"key": "command_id", "message": "Expected `str | null`, got `int`", "source": "body"}], "status_code": 400}'),
    (b'{"command": ' + PLAY + b', "command_id": "a\\u0000b"}', 400,
     '{"detail": "the body\'s \'command_id\': it holds a NUL character (\\\\u0000), which can be neither stored nor searched", "extra": [{"key": "command_id", "message": "Expected `str` matching regex \'^[^\\\\\\\\x00]*$\'", "source": "body"}], "status_code": 400}'),
    (b'{"command": ' + PLAY + b', "command_id": "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"}', 400,
     '{"detail": "the body\'s \'command_id\': Expected `str` of length <= 64", "extra": [{"key": "command_id", "message": "Expected `str` of length <= 64", "source": "body"}], "status_code": 400}'),
    (b'{"command": {"type"', 400,
     '{"detail": "the body is not valid JSON: it ends early (a string, object or array not closed, or a \\\\u escape cut short: an unpaired UTF-16 surrogate such as \\\\ud800 is not a character)", "status_code": 400}'),
    (b'{"command": "\xff"}', 400,
     '{"detail": "the body is not valid JSON: Invalid UTF-8 encoded string", "status_code": 400}'),
    (b'{"command": ' + b"[" * 5000 + b"]" * 5000 + b"}", 400,
     '{"detail": "the JSON is nested too deeply", "status_code": 400}'),
    (b'{"command": {"type": "dance"}}', 422,
     '{"detail": "invalid command: Invalid value \'dance\' - at `$.type`", "status_code": 422}'),
    (b'{"command": {"type": "play", "card": "joker", "target": 1}}', 422,
     '{"detail": "there is no card called \'joker\'", "status_code": 422}'),
    (b'{"command": {"type": "play", "card": "lamp_warden", "target": "1", "guess": "gale"}}', 422,
     '{"detail": "invalid command: Expected `int | null`, got `str` - at `$.target`", "status_code": 422}'),
    (b'{"command": {"type": "play", "card": "lamp_warden", "target": 1, "guess": "gale", "x": 1, "y": [1]}}', 400,
     '{"detail": "the command has a field \'command.x\' a \'play\' command does not take (is it spelt as documented?)", "extra": {"fields": ["command.x", "command.y"]}, "status_code": 400}'),
    (b'{"command": {"card": "lamp_warden"}}', 422,
     '{"detail": "invalid command: Object missing required field `type`", "status_code": 422}'),
    (b'{"command": ' + PLAY + b', "expected_version": 0}', 409,
     '{"detail": "version clash: expected version 0, the match is at version 7", "extra": {"current_version": 7}, "status_code": 409}'),
    (b'{"command": ' + PLAY + b', "expected_version": 2.0}', 409,
     '{"detail": "version clash: expected version 2, the match is at version 7", "extra": {"current_version": 7}, "status_code": 409}'),
    (b'{"command": ' + PLAY + b', "expected_version": 99}', 409,
     '{"detail": "version clash: expected version 99, the match is at version 7", "extra": {"current_version": 7}, "status_code": 409}'),
    (b'{"command": {"type": "concede"}, "command": ' + PLAY + b', "expected_version": 99}', 409,
     '{"detail": "version clash: expected version 99, the match is at version 7", "extra": {"current_version": 7}, "status_code": 409}'),
    (b'{"command": ' + PLAY + b', "expected_version": 99, "expected_version": 99.0}', 409,
     '{"detail": "version clash: expected version 99, the match is at version 7", "extra": {"current_version": 7}, "status_code": 409}'),
    (b'{"command": {"type": "play", "card": "' + b"x" * 70_000 + b'"}}', 413,
     '{"detail": "the body is larger than 64 KiB", "status_code": 413}'),
    (b'{"command": {"type": "concede"}, "command_id": "\xf0\x9f\x98\x80", "expected_version": 1.0}',
     409, '{"detail": "version clash: expected version 1, the match is at version 7", '
     '"extra": {"current_version": 7}, "status_code": 409}'),
]


class Table(SimpleNamespace):
    """A started match in process: its client, id and the seats' tokens."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    """The app over an in-memory store (fixed seeds), for the module."""
    service = MatchService(MemoryStore(), seeds=lambda: bytes(32))
    app = create_app()
    app.state.services = SimpleNamespace(matches=service, apps=SimpleNamespace(identify=None))
    with TestClient(app) as running:
        yield running


@pytest.fixture
def table(client: TestClient[Any]) -> Table:
    """A two-seat wick-and-ember match of its own, started."""
    created = client.post("/matches", json={"game": "wick-and-ember", "seats": 2}).json()
    match_id = created["match_id"]
    tokens = [client.post(f"/matches/{match_id}/seats", json={"name": name}).json()["token"]
              for name in ("Ada", "Bryn")]
    client.post(f"/matches/{match_id}/start",
                headers={"authorization": f"Bearer {created['host_token']}"})
    return Table(client=client, match_id=match_id, tokens=tokens)


def send(table: Table, body: bytes, seat: int = 0) -> tuple[int, dict[str, object]]:
    """POST ``body`` as the seat's command; the answer's status and JSON."""
    answer = table.client.post(
        f"/matches/{table.match_id}/commands", content=body,
        headers={"authorization": f"Bearer {table.tokens[seat]}",
                 "content-type": "application/json"})
    return answer.status_code, answer.json()


@pytest.mark.parametrize(("body", "status", "answer"), BODIES)
def test_a_malformed_or_refused_command_body_gets_the_answer_it_always_got(table, body, status,
                                                                            answer):
    """Given a started match, when seat 0 sends a malformed or refused body, then the answer's
    status and JSON are the ones recorded, and the match's version is unchanged."""
    before = table.client.get(f"/matches/{table.match_id}").json()["version"]
    got = send(table, body)
    assert got == (status, json.loads(answer))
    assert table.client.get(f"/matches/{table.match_id}").json()["version"] == before


def test_a_legal_command_is_played_once_and_answered_with_the_seat_view(table):
    """Given a started match, when the seat to act sends a listed command with a command_id
    and a whole-number float as its expected version, then it is played (200, the version
    moves on) and the same body again gets the same answer without a new event."""
    view = table.client.get(f"/matches/{table.match_id}/view").json()
    seat = view["board"]["turn"]
    legal = table.client.get(f"/matches/{table.match_id}/legal-actions",
                             headers={"authorization": f"Bearer {table.tokens[seat]}"}).json()
    body = json.dumps({"command": legal["actions"][0]["command"], "command_id": "once",
                       "expected_version": float(view["version"])}).encode()
    first, again = send(table, body, seat), send(table, body, seat)
    assert first[0] == 200 and first[1]["version"] > view["version"]
    assert again == first
