"""A tournament from its creation page to its standings, played in the browser: the organizer
creates it, registers herself and a bot, closes registration, starts the round, goes to her
table, plays it by picking, and reads the standings with their tie-breaks explained; then the
replay of her match. axe-core checks every page on the way."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web.accessibility import blocking_violations
from tests.web.pages import api, new_page
from tests.web.picking import play_to_the_end

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.mark.slow
async def test_a_tournament_is_created_joined_played_and_ranked_from_its_pages(web_server, browser):
    """Given the lobby, when Ash creates a one-round Swiss of Wick & Ember on its creation page,
    registers, adds a bot, closes registration, starts the round, goes to her table and plays
    it to the end, then the tournament page shows it finished with both names in the standings
    (the API's order) and a legend for every tie-break column; the replay lists the moves;
    no page has a serious or critical axe-core violation, and no script error."""
    page = await new_page(browser)
    await page.goto(f"{web_server}/")
    await page.locator("#games form").first.wait_for()
    assert await blocking_violations(page) == []  # the lobby
    await page.get_by_role("link", name="Create a tournament").click()
    await page.get_by_label("Name", exact=True).fill("Friday Lanterns")
    await page.get_by_label("Game").select_option("wick-and-ember")
    await page.get_by_label("Rounds").fill("1")
    assert await blocking_violations(page) == []  # the creation page
    await page.get_by_role("button", name="Create the tournament").click()
    await page.wait_for_url(re.compile(r"/tournament/[0-9a-f-]{36}$"))
    tid = page.url.rsplit("/", 1)[1]
    await page.get_by_label("Your name").fill("Ash")
    await page.get_by_role("button", name="Register", exact=True).click()
    await page.get_by_text("You play as Ash").wait_for()
    await page.get_by_role("button", name="Register a bot").click()
    await page.get_by_text("2 entrants").wait_for()
    assert await blocking_violations(page) == []  # registering
    await page.get_by_role("button", name="Close registration").click()
    await page.get_by_role("button", name="Start the next round").click()
    await page.get_by_role("link", name="Go to my table").click()
    await page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    await page.get_by_text(re.compile(r"You are Ash \(seat \d\)")).wait_for()
    await play_to_the_end(page, seed=7)

    await page.goto(f"{web_server}/tournament/{tid}")
    await page.get_by_role("heading", name=re.compile("Friday Lanterns · finished")).wait_for()
    standings = api(web_server, f"/tournaments/{tid}/standings")["standings"]
    shown = await page.locator(".standings-table tbody tr").evaluate_all(
        "rows => rows.map(r => r.cells[1].textContent)")
    assert shown == [s["name"] for s in standings] and "Ash" in shown
    assert "Swiss · Wick & Ember" in await page.locator("#facts").inner_text()
    await page.get_by_text("How ties are broken").click()
    heads = await page.locator(".standings-table th").all_inner_texts()
    legend = await page.locator(".legend dt").all_inner_texts()
    assert legend and all(term in heads for term in legend)
    assert await blocking_violations(page) == []  # finished, the legend open
    await page.set_viewport_size({"width": 390, "height": 844})
    assert await blocking_violations(page) == []  # on a phone (the standings scroll sideways)
    await page.set_viewport_size({"width": 1280, "height": 900})

    await page.locator(".round li a", has_text="Replay").first.click()
    await page.locator("#fair-verified").wait_for()
    assert await page.locator("#moves li").count() > 0
    await page.get_by_role("button", name="Play", exact=True).click()  # autoplay from the end starts over
    await page.get_by_text(re.compile(r"^Version [2-9] of")).wait_for()
    await page.get_by_role("button", name="Pause", exact=True).click()
    await page.locator("#moves li button").nth(5).click()  # a move of the list: its version
    await page.locator("#moves li.current").wait_for()
    assert await blocking_violations(page) == []  # the replay
    await page.screenshot(path=str(SHOTS / "replay-moves.png"), full_page=True)
    assert page.errors == []
