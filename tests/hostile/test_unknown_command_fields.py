"""Attack: a command with a field nobody documented (issue #34, defect 10).

`{"type": "pass", "x": 1}` was decoded as a plain pass, the unknown field dropped, and the
command applied. A command is now strict like a body: 400 naming the field, nothing applied.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.games import GAMES
from service import schemas
from service.errors import ServiceError
from service.matches import decode_command
from tests.reliability.tables import open_table


@pytest.mark.parametrize(("game", "command"), [
    ("deathwick", {"type": "pass", "x": 1}),
    ("wick-and-ember", {"type": "play", "card": "lamp_warden", "target": 1, "guess": "gale",
                        "x": 1}),
])
def test_an_unknown_field_in_a_command_is_refused_naming_it(game, command):
    """Given a command of the game with one field too many, when it is decoded, then it is 400
    naming the field; without that field it decodes."""
    with pytest.raises(ServiceError) as refused:
        decode_command(GAMES[game], command)
    assert refused.value.status == 400 and "'command.x'" in refused.value.message
    decode_command(GAMES[game], {key: value for key, value in command.items() if key != "x"})


async def test_a_legal_command_with_a_field_added_changes_nothing(server):
    """Given a started match and a legal command of the seat to act, when it is sent with one
    field added, then the answer is 400 naming the field and the match's version is unchanged;
    sent as listed, it is applied."""
    table = await open_table([server], 2, random.Random(34))
    spectator = table.spectator()
    view = (await spectator.get(f"/matches/{table.match_id}/view")).json()
    seat = view["board"]["turn"]
    client = table.seat_client(seat)
    legal = (await client.get(f"/matches/{table.match_id}/legal-actions")).json()
    command = legal["actions"][0]["command"]
    answer = await client.post(f"/matches/{table.match_id}/commands",
                               json={"command": {**command, "x": 1}})
    after = (await spectator.get(f"/matches/{table.match_id}/view")).json()
    assert answer.status_code == 400, answer.text
    assert "'command.x'" in answer.json()["detail"]
    assert after["version"] == view["version"]
    played = await client.post(f"/matches/{table.match_id}/commands", json={"command": command})
    assert played.status_code == 200, played.text
    assert msgspec.json.decode(played.content)["version"] > view["version"]


class _Step(msgspec.Struct, frozen=True):
    """A part of a command, nested (no built-in game's command nests one yet)."""

    card: str


class _Route(msgspec.Struct, tag="route", frozen=True):
    """A command holding nested parts, in a list and alone."""

    steps: tuple[_Step, ...]
    last: _Step
    note: dict[str, int] = {}


def test_every_unknown_field_is_named_by_its_path_in_the_order_sent():
    """Given a command with fields too many at its top, inside a list and inside a part, when
    its fields are checked (twice: the second time from what the first learnt of the type),
    then every one is named by its path, in the order sent; a free-form dict names none."""
    sent = {"type": "route", "x": 1, "steps": [{"card": "a"}, {"card": "b", "y": 2}],
            "last": {"z": [1], "card": "c"}, "note": {"any": 1}, "w": {"v": 1}}
    typed = msgspec.convert(sent, _Route)
    expected = ["command.x", "command.steps[1].y", "command.last.z", "command.w"]
    assert schemas.unknown_fields(sent, typed) == expected
    assert schemas.unknown_fields(sent, typed) == expected
    assert schemas.unknown_fields({**sent, "x": None, "w": 0}, typed)[0] == "command.x"
