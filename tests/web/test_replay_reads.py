"""The replay viewer's defects of issue 35, each pinned: an event credited to the seat whose
move caused it ('turn began (Bot 1)' when Ash's turn began), this browser's private lines shown
while another seat is chosen, and a phone opening the replay scrolled far down the page."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from tests.api.players import seated_match
from tests.web.pages import api, new_page


async def finished_match(base: str) -> tuple[str, dict]:
    """A two-seat Wick & Ember match played to its end over the API by Ash and Bryn; its id
    and what Ash's browser keeps for it (her seat and token)."""
    created, players = await seated_match(base, ["Ash", "Bryn"], options={"ember_target": 2})
    await asyncio.gather(*(p.play_randomly(random.Random(i)) for i, p in enumerate(players)))
    ash = players[0]
    kept = {"seat": ash.seat, "token": ash.token, "name": "Ash"}
    for player in players:
        await player.close()
    return created["match_id"], kept


async def replay_page(browser, base: str, match_id: str, kept: dict, width=1280, height=900):
    """Ash's browser (her seat kept) on the replay of the match, its fairness panel drawn."""
    page = await new_page(browser, width, height)
    await page.goto(f"{base}/")
    await page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                        [f"hearthlog:match:{match_id}", json.dumps(kept)])
    await page.goto(f"{base}/replay/{match_id}")
    await page.locator("#fair-verified").wait_for()
    return page


@pytest.mark.slow
async def test_each_version_says_what_happened_not_who_caused_it(web_server, browser):
    """Given a finished match, when each version whose event a seat's move caused but whose
    first line speaks of something else is shown, then the line above the table is the log's
    own words for it, not the event's type credited to the causing seat."""
    match_id, kept = await finished_match(web_server)
    page = await replay_page(browser, web_server, match_id, kept)
    replay = api(web_server, f"/matches/{match_id}/replay")
    public = {}
    for line in api(web_server, f"/matches/{match_id}/log")["entries"]:
        public.setdefault(line["version"], line["text"])
    checked = 0
    for step in replay["steps"]:
        said = public.get(step["version"])
        if step["seat"] is None or not said or said.startswith(replay["names"][step["seat"]]):
            continue
        await page.evaluate(f"document.getElementById('slider').value = {step['version']}; "
                            "document.getElementById('slider').dispatchEvent(new Event('input'))")
        await page.get_by_text(f"Version {step['version']} of").wait_for()
        assert said in await page.locator("#event").inner_text()
        checked += 1
        if checked == 5:
            break
    assert checked > 0
    assert page.errors == []


@pytest.mark.slow
async def test_another_seat_chosen_shows_no_private_line_of_this_browser(web_server, browser):
    """Given Ash's browser on her match's replay, her private lines are shown as hers; when
    Bryn is chosen under 'Seen by', not one of them is shown."""
    match_id, kept = await finished_match(web_server)
    page = await replay_page(browser, web_server, match_id, kept)
    assert await page.locator("#log li.private").count() > 0
    await page.locator("#as").select_option("seat-1")
    await page.wait_for_url(lambda url: "as=seat-1" in url)
    assert await page.locator("#log li.private").count() == 0
    assert "Public lines only" in await page.locator("#log-note").inner_text()


@pytest.mark.slow
async def test_a_phone_opens_the_replay_at_the_top_of_the_page(web_server, browser):
    """Given a phone's 390 x 844 screen (the log under the table), when the replay opens at
    its last version, then the page is not scrolled: the log scrolls itself."""
    match_id, kept = await finished_match(web_server)
    page = await replay_page(browser, web_server, match_id, kept, 390, 844)
    await page.locator("#log li").last.wait_for()
    assert await page.evaluate("window.scrollY") == 0
