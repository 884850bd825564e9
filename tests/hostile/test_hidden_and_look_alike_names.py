"""Attack: names nobody can see or tell apart (issue #34, defects 3 and 8).

A tournament entrant named with spaces alone, or with a character that grows eighteen-fold when
normalised, was registered and then kept its table in the lobby for good; a tag, a variation
selector or a Hangul filler made a second "Ash" at one table. Each is now refused as the body is
decoded (400 naming the field and the character), and a name that merely looks like one at the
table is refused too.
"""

from __future__ import annotations

import httpx
import pytest

TOURNAMENT = {"name": "Hostile cup", "game": "wick-and-ember", "table_size": 2,
              "format": "round-robin"}
REFUSED = {
    "spaces alone": "   ",
    "U+FDFA twice (36 characters once normalised)": "\ufdfa\ufdfa",
    "a tag (U+E0041)": "Ash\U000e0041",
    "a musical format character (U+1D173)": "Ash\U0001d173",
    "private use, plane 16": "Ash\U00100000",
    "a Hangul filler (U+3164)": "Ash\u3164",
    "the braille blank (U+2800)": "Ash\u2800",
    "the combining grapheme joiner (U+034F)": "A\u034fsh",
    "a variation selector (U+FE0F)": "Ash\ufe0f",
}


@pytest.fixture(scope="module")
async def tournament(server) -> str:
    """A tournament open for registration."""
    async with httpx.AsyncClient(base_url=server) as client:
        answer = await client.post("/tournaments", json=TOURNAMENT)
    assert answer.status_code == 201, answer.text
    return answer.json()["tournament_id"]


@pytest.fixture(scope="module")
async def lobby(server) -> str:
    """A four-seat match in its lobby with "Ash" seated."""
    async with httpx.AsyncClient(base_url=server) as client:
        match = (await client.post("/matches", json={"game": "deathwick", "seats": 4})).json()
        seated = await client.post(f"/matches/{match['match_id']}/seats", json={"name": "Ash"})
    assert seated.status_code == 201, seated.text
    return match["match_id"]


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
async def test_an_entrant_nobody_could_see_or_seat_is_refused_before_it_is_registered(
        server, tournament, name):
    """Given a tournament open for registration, when an entrant registers with a name that is
    blank, grows when normalised or holds an invisible character, then the answer is 400
    naming the field, and the tournament has no entrant of that name."""
    async with httpx.AsyncClient(base_url=server) as client:
        answer = await client.post(f"/tournaments/{tournament}/players",
                                   json={"name": name, "bot": "random"})
        entrants = (await client.get(f"/tournaments/{tournament}")).json()["entrants"]
    assert answer.status_code == 400, answer.text
    assert "'name'" in answer.json()["detail"]
    assert all(entrant["name"].strip() for entrant in entrants)


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
async def test_a_second_ash_with_a_hidden_character_cannot_take_a_seat(server, lobby, name):
    """Given "Ash" at a table, when another joins as "Ash" with an invisible character (or a
    blank or growing name), then it is 400 and no seat is taken."""
    async with httpx.AsyncClient(base_url=server) as client:
        answer = await client.post(f"/matches/{lobby}/seats", json={"name": name})
        players = (await client.get(f"/matches/{lobby}")).json()["players"]
    assert answer.status_code == 400, answer.text
    assert [p["name"] for p in players] == ["Ash"]


@pytest.mark.parametrize("name", ["ASH", "\u0410sh", "\U0001d400\U0001d42c\U0001d421"],
                         ids=["capitals", "a Cyrillic A", "mathematical bold"])
async def test_a_name_that_looks_like_one_at_the_table_is_refused(server, lobby, name):
    """Given "Ash" at a table, when another joins as a name that looks the same, then it is 422
    naming the name it looks like, and no seat is taken."""
    async with httpx.AsyncClient(base_url=server) as client:
        answer = await client.post(f"/matches/{lobby}/seats", json={"name": name})
        players = (await client.get(f"/matches/{lobby}")).json()["players"]
    assert answer.status_code == 422, answer.text
    assert "'Ash'" in answer.json()["detail"]
    assert [p["name"] for p in players] == ["Ash"]


async def test_look_alike_entrants_cannot_both_register(server, tournament):
    """Given an entrant "Bryn", when "Bryn" spelt with a Greek capital beta registers, then it
    is 409 and one Bryn remains."""
    async with httpx.AsyncClient(base_url=server) as client:
        first = await client.post(f"/tournaments/{tournament}/players",
                                  json={"name": "Bryn", "bot": "random"})
        second = await client.post(f"/tournaments/{tournament}/players",
                                   json={"name": "\u0392ryn", "bot": "random"})
        names = [e["name"] for e in (await client.get(f"/tournaments/{tournament}")).json()
                 ["entrants"]]
    assert first.status_code == 201, first.text
    assert second.status_code == 409, second.text
    assert names.count("Bryn") == 1 and "\u0392ryn" not in names
