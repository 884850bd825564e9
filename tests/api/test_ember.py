"""Ember over HTTP: the card set served in words; five clients at once, abilities used off-turn
(E8), played to the end, then the export verified offline."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import httpx
import pytest

from domain.ember import GAME
from domain.ember.cards import card_set
from tests.api.players import Player, finished_documents, seated_match, verified_offline

NAMES = ["Ash", "Bryn", "Cato", "Dell", "Esme"]
OPTIONS = {"call_at": 20, "turn_cap": 10}
OFF_TURN_CHANCE = 0.6


async def test_ember_serves_each_card_its_cost_explained_and_its_abilities_in_words(server):
    """Given Ember's catalogue entry, then its cards are every card of the latest rules version,
    each with a text a player reads: its cost with each set's name explained, its abilities."""
    async with httpx.AsyncClient(base_url=server) as client:
        ember = (await client.get("/games/ember")).json()
    cards = card_set(GAME.rules_version)
    served = {card["code"]: card for card in ember["cards"]}
    assert set(served) == {*cards.cards, *cards.dragons, *cards.tutors, "archmage"}
    assert all(card["name"] and card["text"] for card in ember["cards"])
    phoenix = served["phoenix_of_cinders"]
    assert phoenix["name"] == "Phoenix of Cinders"
    assert "a spellbook (four of one number)" in phoenix["text"] and "Rebirth" in phoenix["text"]


def pick(actions: list[dict], rng: random.Random) -> dict:
    """A conjure when one is offered (so creatures come into play), else any action."""
    conjures = [a for a in actions if a["type"] == "conjure"]
    return rng.choice(conjures or actions)


async def play(player: Player, rng: random.Random, off_turn: Counter[int]) -> dict:
    """Act whenever anything is offered: on its turn any action, off its turn now and then an
    ability (E8). Off-turn uses that another client's command made stale are refused (422) or
    outrun (409), never lost: only answers of 200 are counted."""
    while True:
        view = await player.get("/view")
        if view["status"] == "finished":
            return view
        actions = [a["command"] for a in (await player.get("/legal-actions"))["actions"]]
        mine = player.seat in view["to_act"]
        if not actions or (not mine and rng.random() > OFF_TURN_CHANCE):
            await asyncio.sleep(0.02)
            continue
        answer = await player.send(pick(actions, rng))
        assert answer.status_code in (200, 409, 422), answer.text
        if answer.status_code == 200 and not mine:
            off_turn[player.seat or 0] += 1


@pytest.mark.slow
async def test_five_clients_use_abilities_off_turn_at_once_and_the_match_ends_and_verifies(
    server, tmp_path
):
    """Given five clients acting at once, when abilities are used on others' turns, then the
    match is played to its end, every client sees the same last version, and the export
    verifies offline."""
    created, players = await seated_match(server, NAMES, game="ember", options=OPTIONS)
    off_turn: Counter[int] = Counter()
    try:
        finals = await asyncio.wait_for(
            asyncio.gather(*(play(p, random.Random(i), off_turn) for i, p in enumerate(players))),
            timeout=900)
    finally:
        for player in players:
            await player.close()
    assert len({final["version"] for final in finals}) == 1
    assert len(off_turn) >= 2, f"off-turn uses by seat: {dict(off_turn)}"
    summary, verification, export = await finished_documents(server, created["match_id"])
    assert summary["status"] == "finished" and summary["result"]["winners"]
    assert verification["ok"] is True, verification
    await verified_offline(export, tmp_path / "ember.json")
