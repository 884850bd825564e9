"""Players in a browser (issue #37 item 5): two people make players in the lobby, press "Play
now" and meet at a table; a rated match's leaderboard and player pages render what the API has,
axe-core clean, with their screenshots."""

from __future__ import annotations

import asyncio
import random
import re
import time
from typing import Any

import httpx
import pytest

from tests.web.accessibility import blocking_violations
from tests.web.pages import api, new_page
from tests.web.test_browser_matches import PHONE, shoot

pytestmark = pytest.mark.slow
GAME = "wick-and-ember"
SETTLE = 60  # s a rated match's ratings may take to be written after it ends


async def make_player(page: Any, base: str, name: str) -> dict[str, Any]:
    """Create a player from the lobby's sign-in; what this browser keeps of it."""
    await page.goto(f"{base}/")
    await page.get_by_label("Player name").fill(name)
    await page.get_by_role("button", name="Create a player").click()
    await page.get_by_text("Keep this token now: it is shown only once.").wait_for()
    kept = await page.evaluate("JSON.parse(localStorage.getItem('hearthlog:player'))")
    assert await page.locator("#new-token").inner_text() == kept["token"]
    assert await page.locator("#you").inner_text() == f"You: {name}"
    return kept


def queue_answer(base: str, token: str) -> int:
    """The status of GET /queue for a player token (404: not queued)."""
    return httpx.get(f"{base}/queue", headers={"authorization": f"Bearer {token}"}, timeout=30).status_code


async def test_two_players_press_play_now_and_meet_at_a_table(web_server, browser):
    """Given two people who each make a player in the lobby, when both press "Play Wick & Ember
    now" (two seats, rated), then each sees the wait with its Leave button until the matcher
    seats them, and both pages open the same table, each at its own seat, acting with the
    player's own token (its moves are offered); no script error."""
    pages = [await new_page(browser), await new_page(browser)]
    players = [await make_player(page, web_server, name) for page, name in zip(pages, ["Ash", "Bryn"])]
    for page in pages:
        form = page.locator(f"form[data-game='{GAME}']")
        await form.get_by_label("Seats").fill("2")
        assert await form.get_by_label("Rated").is_checked()
        await form.get_by_role("button", name="Play Wick & Ember now").click()
    await pages[0].get_by_role("button", name="Leave the queue").wait_for(state="attached")
    for page in pages:
        await page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"), timeout=60_000)
    match_ids = {page.url.rsplit("/", 1)[1] for page in pages}
    assert len(match_ids) == 1, match_ids
    match_id = match_ids.pop()
    summary = api(web_server, f"/matches/{match_id}")
    assert sorted(p["name"] for p in summary["players"]) == ["Ash", "Bryn"]
    by_seat = {}
    for page, player in zip(pages, players):
        await page.get_by_text(re.compile(rf"You are {player['name']} \(seat \d\)")).wait_for()
        held = await page.evaluate(f"JSON.parse(localStorage.getItem('hearthlog:match:{match_id}'))")
        assert held["token"] == player["token"]  # the player's own token acts at its table
        by_seat[held["seat"]] = page
    assert api(web_server, f"/matches/{match_id}")["status"] == "playing"
    to_act = by_seat[api(web_server, f"/matches/{match_id}/view")["to_act"][0]]
    await to_act.locator("button.action:not([disabled])").first.wait_for()  # its moves offered
    assert await blocking_violations(pages[0]) == []
    for page in pages:
        assert page.errors == []


async def test_leaving_the_queue_is_immediate_and_a_token_signs_in_elsewhere(web_server, browser):
    """Given a player waiting alone for a table of 5 or 6 seats (its wait shown again after a
    reload), when it presses Leave, then GET /queue no longer knows it and the lobby hides the
    wait; pasting the token in another browser signs in as the same player, and signing out
    there (pressed twice) forgets it and disables Play now."""
    page = await new_page(browser)
    player = await make_player(page, web_server, "Cole")
    form = page.locator("form[data-game='whiteout-road']")
    await form.get_by_label("Seats").fill("5")
    await form.get_by_label("Or a larger table (up to 6)").check()
    await form.get_by_role("button", name="Play Whiteout Road now").click()
    await page.get_by_role("heading", name="Waiting for a Whiteout Road table").wait_for()
    await page.reload()  # the wait is the server's: the lobby finds it again as it opens
    await page.get_by_role("heading", name="Waiting for a Whiteout Road table").wait_for()
    await page.get_by_text("5 to 6 seats, rated.").wait_for()
    await shoot(page, "play-now")
    await page.get_by_role("button", name="Leave the queue").click()
    await page.get_by_text("You left the queue.").wait_for()
    await page.locator("#queue").wait_for(state="hidden")
    assert queue_answer(web_server, player["token"]) == 404
    other = await new_page(browser)
    await other.goto(f"{web_server}/")
    await other.get_by_label("Your player token").fill(player["token"])
    await other.get_by_role("button", name="Sign in").click()
    await other.get_by_text("Signed in as Cole").wait_for()
    await other.get_by_role("button", name="Sign out").click()
    await other.get_by_role("button", name=re.compile("Really sign out")).click()
    await other.get_by_role("button", name="Create a player").wait_for()
    assert await other.evaluate("localStorage.getItem('hearthlog:player')") is None
    assert await other.get_by_role("button", name="Play Whiteout Road now").is_disabled()
    assert page.errors == [] and other.errors == []


def new_players(base: str, names: list[str]) -> list[dict[str, Any]]:
    """Players made through the API: each {player_id, name, token}."""
    made = [httpx.post(f"{base}/players", json={"name": name}, timeout=30) for name in names]
    assert all(answer.status_code == 201 for answer in made), [a.text for a in made]
    return [answer.json() for answer in made]


def rated_match(base: str, players: list[dict[str, Any]], seed: int, bots: int = 0) -> str:
    """A rated Wick & Ember match of these players, each seated with its own token, then
    ``bots`` random bots, played to its end by seeded random legal moves through the API (the
    bots by the server); its id."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as client:
        made = client.post("/matches", json={"game": GAME, "seats": len(players) + bots,
                                             "rated": True})
        assert made.status_code == 201, made.text
        match_id = made.json()["match_id"]
        for player in players:
            seated = client.post(f"/matches/{match_id}/seats", json={},
                                 headers={"authorization": f"Bearer {player['token']}"})
            assert seated.status_code == 201, seated.text
        for _ in range(bots):
            seated = client.post(f"/matches/{match_id}/seats", json={"bot": "random"})
            assert seated.status_code == 201, seated.text
        started = client.post(f"/matches/{match_id}/start",
                              headers={"authorization": f"Bearer {made.json()['host_token']}"})
        assert started.status_code == 200, started.text
        while client.get(f"/matches/{match_id}").json()["status"] != "finished":
            for player in players:
                auth = {"authorization": f"Bearer {player['token']}"}
                actions = client.get(f"/matches/{match_id}/legal-actions",
                                     headers=auth).json()["actions"]
                if actions:
                    client.post(f"/matches/{match_id}/commands", headers=auth,
                                json={"command": rng.choice(actions)["command"]})
    return match_id


async def rated_on_the_board(base: str, subjects: set[str]) -> list[dict[str, Any]]:
    """The game's leaderboard once it holds every one of these subjects (ratings are written
    as a rated match ends; this waits for that write, not for a time)."""
    deadline = time.monotonic() + SETTLE
    while True:
        entries = api(base, f"/ratings/{GAME}?limit=200")["ratings"]
        if subjects <= {e["subject"] for e in entries}:
            return entries
        assert time.monotonic() < deadline, f"no ratings for {subjects} after {SETTLE} s"
        await asyncio.sleep(0.2)


async def test_the_leaderboard_and_a_player_page_show_the_ratings_the_api_has(web_server, browser):
    """Given three rated matches of new players (Dara in two, Eve against a bot), when a
    person opens the game's leaderboard from the lobby and a player from it, then the
    leaderboard lists the API's ratings in its order, every one marked provisional, the bot by
    its name and unlinked; the player page shows its name, its rating history as a chart (the
    start, then after each match, the API's rating in words) and its matches with replay
    links; axe-core clean on both, at desktop and phone widths; the screenshots."""
    dara, eve, finn = new_players(web_server, ["Dara", "Eve", "Finn"])
    first = rated_match(web_server, [dara, eve], seed=37)
    rated_match(web_server, [finn, dara], seed=38)
    rated_match(web_server, [eve], seed=39, bots=1)
    entries = await rated_on_the_board(
        web_server, {"bot:random", *(p["player_id"] for p in (dara, eve, finn))})
    page = await new_page(browser)
    await page.goto(f"{web_server}/")
    await page.get_by_role("link", name="Wick & Ember leaderboard").click()
    await page.wait_for_url(re.compile(rf"/leaderboard/{GAME}$"))
    rows = page.locator(".standings-table tbody tr")
    await rows.first.wait_for()
    shown = await rows.evaluate_all("rows => rows.map(r => r.dataset.subject)")
    assert shown == [e["subject"] for e in entries]
    assert await rows.locator(".badge.provisional").count() == len(entries)
    bot = page.locator(".standings-table tbody tr[data-subject='bot:random']")
    assert "random (bot)" in await bot.inner_text() and await bot.get_by_role("link").count() == 0
    assert await blocking_violations(page) == []
    await shoot(page, "leaderboard")
    await rows.get_by_role("link", name="Dara").click()
    await page.wait_for_url(re.compile(rf"/player/{dara['player_id']}$"))
    await page.get_by_role("heading", name="Dara").wait_for()
    chart = page.locator(f"figure.rating[data-game='{GAME}'] svg.chart")
    await chart.wait_for()
    assert await chart.locator("circle.dot").count() == 3  # the start, then after each match
    now = api(web_server, f"/ratings/{GAME}/subjects/{dara['player_id']}")["current"]
    caption = await page.locator(f"figure.rating[data-game='{GAME}'] figcaption").inner_text()
    shown = f"\u03bc {now['mu']:.2f}, \u03c3 {now['sigma']:.2f} after 2 rated matches (provisional)"
    assert shown in caption
    match = page.locator(f"li[data-match='{first}']")
    assert await match.get_by_role("link", name="Replay").get_attribute("href") == f"/replay/{first}"
    assert await blocking_violations(page) == []
    await shoot(page, "player")
    phone = await new_page(browser, **PHONE)
    await phone.goto(f"{web_server}/leaderboard/{GAME}")
    await phone.locator(".standings-table tbody tr").first.wait_for()
    assert await blocking_violations(phone) == []
    await shoot(phone, "leaderboard-phone")
    await phone.goto(f"{web_server}/player/{dara['player_id']}")
    await phone.locator("svg.chart").wait_for()
    assert await blocking_violations(phone) == []
    await shoot(phone, "player-phone")
    assert page.errors == [] and phone.errors == []


def open_tournament(base: str) -> str:
    """A one-round Swiss of Wick & Ember open for registration; its id."""
    made = httpx.post(f"{base}/tournaments", timeout=30, json={
        "name": "Ember Night", "game": GAME, "table_size": 2, "format": "swiss", "rounds": 1})
    assert made.status_code == 201, made.text
    return made.json()["tournament_id"]


async def test_a_signed_in_player_registers_in_a_tournament_as_itself(web_server, browser):
    """Given a signed-in player on an open tournament's page, when it presses Register with no
    name typed, then it enters as that player (the API lists the tournament among the player's,
    under its name) and its page lists the tournament; a reload still knows the entrant."""
    page = await new_page(browser)
    player = await make_player(page, web_server, "Hale")
    tid = open_tournament(web_server)
    await page.goto(f"{web_server}/tournament/{tid}")
    await page.get_by_role("button", name="Register", exact=True).click()
    await page.get_by_role("heading", name="You play as Hale").wait_for()
    entered = api(web_server, f"/players/{player['player_id']}/tournaments")["tournaments"]
    assert [(t["tournament_id"], t["entrant_name"]) for t in entered] == [(tid, "Hale")]
    await page.evaluate(f"localStorage.removeItem('hearthlog:tournament:{tid}')")
    await page.reload()  # found again from the player's token alone
    await page.get_by_role("heading", name="You play as Hale").wait_for()
    await page.goto(f"{web_server}/player/{player['player_id']}")
    await page.locator(f"li[data-tournament='{tid}']").wait_for()
    assert page.errors == []
