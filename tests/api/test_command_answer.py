"""One request a move: a command's answer carries the seat's next legal actions (issue 33)."""

from __future__ import annotations

import random

from tests.api.test_commands import WARDEN_HIT, practice


async def test_a_command_answer_carries_the_actions_a_get_would_give(server):
    """Given Ash's Warden hits Bryn's Hearthflame and a new round is dealt, when Ash reads the
    answer, then its actions are exactly what GET legal-actions gives at its version."""
    _created, (ash, bryn) = await practice(server)
    answer = await ash.send(WARDEN_HIT)
    assert answer.status_code == 200, answer.text
    sent = answer.json()
    legal = await ash.get("/legal-actions")
    assert legal["version"] == sent["version"]
    assert sent["actions"] == legal["actions"]
    others = await bryn.get("/legal-actions")
    seat_to_act = sent["view"]["to_act"]
    assert (sent["actions"] != []) == (ash.seat in seat_to_act)
    assert (others["actions"] != []) == (bryn.seat in seat_to_act)


async def test_every_answer_in_a_whole_match_agrees_with_legal_actions(server):
    """Given a practice match played to its end with random legal moves, when each command is
    answered, then its actions equal the seat's GET legal-actions at that version, always."""
    _created, players = await practice(server)
    rng, moves = random.Random(33), 0
    while moves < 400:
        views = [await p.get("/view") for p in players]
        if views[0]["status"] == "finished":
            break
        mover = next(p for p in players if p.seat in views[0]["to_act"])
        action = rng.choice((await mover.get("/legal-actions"))["actions"])
        answer = (await mover.send(action["command"])).json()
        legal = await mover.get("/legal-actions")
        assert (answer["version"], answer["actions"]) == (legal["version"], legal["actions"])
        moves += 1
    assert views[0]["status"] == "finished"
