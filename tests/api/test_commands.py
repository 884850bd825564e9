"""Commands over HTTP: practice deals, conflicts, idempotency, tokens and bad input."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
import pytest

from tests.api.players import Player, open_match, seated_match

REST = ["lamp_warden"] * 3 + ["gale"] * 2 + ["veilkeeper", "sootsweep", "sootsweep",
                                              "ferrywoman", "moth_duchess"]
# Face-down, two face-up, Ash (the opener), Bryn, then Ash's draw and the rest of the pile.
KNOWN_ROUND = ["lensmaker", "lensmaker", "lensmaker", "veilkeeper", "hearthflame",
               "lamp_warden", *REST]
WARDEN_HIT = {"type": "play", "card": "lamp_warden", "target": 1, "guess": "hearthflame"}


async def practice(server: str) -> tuple[dict, list[Player]]:
    """A two-seat practice match whose first round is dealt as KNOWN_ROUND, Ash opening."""
    return await seated_match(server, ["Ash", "Bryn"], practice=True,
                              options={"deal": [KNOWN_ROUND], "opener": 0})


async def versions(database_url: str, match_id: str) -> list[int]:
    """Every stored version of a match, in order."""
    connection = await asyncpg.connect(database_url)
    try:
        rows = await connection.fetch(
            "SELECT version FROM events WHERE match_id = $1 ORDER BY version", match_id)
    finally:
        await connection.close()
    return [row["version"] for row in rows]


async def test_a_practice_deal_reproduces_a_known_round(server):
    """Given Ash holds a Veilkeeper and draws a Lamp Warden while Bryn holds the Hearthflame,
    when Ash's Warden names the Hearthflame on Bryn, then Bryn is snuffed and Ash banks an ember."""
    created, (ash, bryn) = await practice(server)
    view = await ash.get("/view")
    assert view["practice"] is True
    assert sorted(view["board"]["hand"]) == ["lamp_warden", "veilkeeper"]
    answer = await ash.send(WARDEN_HIT)
    assert answer.status_code == 200, answer.text
    board = answer.json()["view"]["board"]
    assert [seat["embers"] for seat in board["seats"]] == [1, 0]
    assert board["round"] == 2
    public = " ".join(line["text"] for line in (await bryn.get("/log"))["entries"])
    assert "Hearthflame" in public and "hit" in public
    async with httpx.AsyncClient(base_url=server) as client:
        summary = (await client.get(f"/matches/{created['match_id']}")).json()
    assert summary["practice"] is True


async def test_concurrent_conflicting_commands_one_wins_the_rest_get_409(server, server_database):
    """Given Ash to act, when ten different legal commands race at the same expected version,
    then exactly one is applied, the rest get 409, and versions stay gap-free."""
    created, (ash, _bryn) = await practice(server)
    legal = await ash.get("/legal-actions")
    commands = ([a["command"] for a in legal["actions"]] * 10)[:10]
    answers = await asyncio.gather(*(
        ash.send(command, expected_version=legal["version"]) for command in commands))
    codes = sorted(answer.status_code for answer in answers)
    assert codes == [200] + [409] * 9
    clash = next(a for a in answers if a.status_code == 409).json()
    assert "version" in clash["detail"]
    stored = await versions(server_database, created["match_id"])
    assert stored == list(range(1, len(stored) + 1))
    winner = next(a for a in answers if a.status_code == 200)
    assert stored[-1] == winner.json()["version"]


async def test_racing_commands_without_expected_version_are_decided_in_turn(
    server, server_database
):
    """Given Ash to act, when ten commands race with no expected version, then one is applied
    and the others are re-decided on the new state and refused as not Ash's turn (409).

    The racing commands are the Warden's misses: whichever wins, the round goes on with Bryn
    to act. (A hit would end the round and deal a random second one in which Ash may open
    again, and then the losers would be refused as illegal, 422, not as out of turn.)"""
    created, (ash, _bryn) = await practice(server)
    actions = [a["command"] for a in (await ash.get("/legal-actions"))["actions"]
               if a["command"]["card"] == "lamp_warden"
               and a["command"].get("guess") != "hearthflame"]
    assert actions, "the practice deal offers Ash a Warden miss"
    answers = await asyncio.gather(*(ash.send(actions[i % len(actions)]) for i in range(10)))
    assert sorted(a.status_code for a in answers) == [200] + [409] * 9
    stored = await versions(server_database, created["match_id"])
    assert stored == list(range(1, len(stored) + 1))


async def test_a_repeated_command_id_gets_the_first_answer_and_appends_once(
    server, server_database
):
    """Given a command sent with an id, when it is sent again (also concurrently), then every
    answer is the first one, byte for byte, and its events are stored once."""
    created, (ash, bryn) = await practice(server)
    first = await ash.send(WARDEN_HIT, command_id="ash-turn-1")
    before = await versions(server_database, created["match_id"])
    again = await asyncio.gather(*(ash.send(WARDEN_HIT, command_id="ash-turn-1")
                                   for _ in range(5)))
    assert first.status_code == 200
    assert {answer.content for answer in again} == {first.content}
    assert await versions(server_database, created["match_id"]) == before
    other = await bryn.send(WARDEN_HIT, command_id="ash-turn-1")
    assert other.status_code == 409 and "another seat" in other.json()["detail"]


async def test_a_command_id_sent_again_with_another_command_gets_422_and_that_command_never_happens(
    server, server_database
):
    """Given a command applied under an id, when the same seat sends another command under it (a
    legal one, Concede, or an illegal one), then 422 naming the reuse, nothing is appended, and
    the seat has not conceded; the first command again (its fields in another order) still gets
    the first answer (IETF Idempotency-Key draft: a reused key with another body is an error)."""
    created, (ash, _) = await practice(server)
    first = await ash.send(WARDEN_HIT, command_id="ash-1")
    before = await versions(server_database, created["match_id"])
    for other in ({"type": "concede"}, {"type": "play", "card": "gale", "target": 5}):
        answer = await ash.send(other, command_id="ash-1")
        assert answer.status_code == 422, answer.text
        assert "already used for another command" in answer.json()["detail"]
        assert answer.json()["extra"]["first_command"]["card"] == "lamp_warden"
    assert await versions(server_database, created["match_id"]) == before
    assert (await ash.get("/view"))["board"]["seats"][0]["conceded"] is False
    reordered = {"guess": "hearthflame", "target": 1, "card": "lamp_warden", "type": "play"}
    assert (await ash.send(reordered, command_id="ash-1")).content == first.content


async def test_tokens_are_checked_401_without_or_invalid_403_for_the_wrong_role(server):
    """Given a started match, when tokens are missing, invalid, from another match or of the
    wrong role, then the answers are 401 or 403 and nothing changes."""
    created, (ash, bryn) = await practice(server)
    other, _ = await practice(server)
    url = f"/matches/{created['match_id']}"
    async with httpx.AsyncClient(base_url=server) as client:
        none = await client.post(f"{url}/commands", json={"command": WARDEN_HIT})
        bad = await client.post(f"{url}/commands", json={"command": WARDEN_HIT},
                                headers={"authorization": "Bearer not-a-token"})
        odd = await client.get(f"{url}/legal-actions", headers={"authorization": "Basic abc"})
        foreign = await client.post(f"{url}/commands", json={"command": WARDEN_HIT},
                                    headers={"authorization": f"Bearer {other['host_token']}"})
        host = await client.post(f"{url}/commands", json={"command": WARDEN_HIT},
                                 headers={"authorization": f"Bearer {created['host_token']}"})
    seat_starts = await ash.client.post(f"{url}/start")
    assert [none.status_code, bad.status_code, odd.status_code, foreign.status_code] == [401] * 4
    assert host.status_code == 403 and seat_starts.status_code == 403
    assert "token" in none.json()["detail"]
    not_turn = await bryn.send(WARDEN_HIT)
    assert not_turn.status_code == 409
    assert (await ash.get("/view"))["version"] == (await bryn.get("/view"))["version"]


BAD_BODIES = [
    (b"{not json", 400),
    (b'{"command": {"type": "play", "card": "lamp_warden"}, "surprise": 1}', 400),
    (b'{"command": {"type": "dance"}}', 422),
    (b'{"command": {"type": "play", "card": "joker", "target": 1}}', 422),
    (b'{"command": {"type": "play", "card": "lamp_warden", "target": 0, "guess": "gale"}}', 422),
    (b'{"command": {"type": "play", "card": "lamp_warden", "target": 1, "guess": "lamp_warden"}}',
     422),
    (b'{"command": {"type": "play", "card": "lamp_warden", "target": 7, "guess": "gale"}}', 422),
    (b'{"command": {"type": "play", "card": "hearthflame"}}', 422),
    (b'{"command": "play"}', 400),
    # Whiteout Road's command, valid in the document's union of every game's, is not this game's
    (b'{"command": {"type": "commit", "card": "7C", "play": "feed"}}', 422),
]


@pytest.mark.parametrize("body,status", BAD_BODIES)
async def test_malformed_and_illegal_commands_get_4xx_and_append_nothing(
    server, server_database, body, status
):
    """Given Ash to act, when a malformed or illegal command arrives, then the answer is the
    expected 4xx with a message, and no event is appended."""
    created, (ash, _bryn) = await practice(server)
    before = await versions(server_database, created["match_id"])
    answer = await ash.client.post(f"/matches/{created['match_id']}/commands", content=body,
                                   headers={"content-type": "application/json"})
    assert answer.status_code == status, answer.text
    assert answer.json()["detail"]
    assert await versions(server_database, created["match_id"]) == before


async def test_unknown_matches_games_and_lobby_mistakes_are_refused(server):
    """Given bad ids and lobby mistakes, then 404, 409 and 422 answers name the problem."""
    async with httpx.AsyncClient(base_url=server) as client:
        assert (await client.get("/matches/nope")).status_code == 404
        assert (await client.get("/games/chess")).status_code == 404
        unknown = await client.post("/matches", json={"game": "chess", "seats": 2})
        assert unknown.status_code == 422 and "chess" in unknown.json()["detail"]
        too_many = await client.post("/matches", json={"game": "wick-and-ember", "seats": 7})
        assert too_many.status_code == 422 and "7" in too_many.json()["detail"]
    created = await open_match(server, 2)
    async with httpx.AsyncClient(base_url=server) as client:
        early = await client.post(f"/matches/{created['match_id']}/start",
                                  headers={"authorization": f"Bearer {created['host_token']}"})
    assert early.status_code == 409 and "seats" in early.json()["detail"]


async def test_a_game_serves_what_each_of_its_cards_does(server):
    """Given Deathwick's catalogue entry, then its cards are the Grimoire's records, in words
    (the joker, then ace to king) as the latest rules version writes them, then each class with
    its power; Wick & Ember serves its eight ranks."""
    from domain.deathwick.classes import CLASSES
    from domain.deathwick.grimoire import GRIMOIRE, text_of
    from domain.deathwick.versions import V2

    async with httpx.AsyncClient(base_url=server) as client:
        deathwick = (await client.get("/games/deathwick")).json()
        plain = (await client.get("/games/wick-and-ember")).json()
    codes = ["JOKER", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert [(c["code"], c["name"], c["text"]) for c in deathwick["cards"]] == [
        (code, spell.name, text_of(spell, V2))
        for code, spell in zip(codes, GRIMOIRE, strict=True)] + [
        (curse.name, curse.title, curse.power) for curse in CLASSES]
    assert deathwick["cards"][5]["name"] == "Salt" and "cancel" in deathwick["cards"][5]["text"]
    assert [c["code"] for c in plain["cards"]][:2] == ["lamp_warden", "lensmaker"]
    assert "snuffed" in plain["cards"][0]["text"]
