"""The tournament page in a browser: reached from the lobby, its rounds and tables linking to
each match's table and replay, its standings as the API has them; and its screenshots."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.web.pages import api, new_page
from tests.web.test_browser_matches import PHONE, shoot

pytestmark = pytest.mark.slow
NAMES = ["Ash", "Bryn", "Cole", "Dara", "Eve", "Finn"]


def bot_tournament(base: str) -> str:
    """A 2-round Swiss of six bots, advancing by itself, its first round started; its id."""
    with httpx.Client(base_url=base, timeout=30) as client:
        made = client.post("/tournaments", json={
            "name": "Lantern Cup", "game": "wick-and-ember", "table_size": 2, "format": "swiss",
            "rounds": 2, "auto_advance": True}).json()
        tid, token = made["tournament_id"], made["organizer_token"]
        for name in NAMES:
            assert client.post(f"/tournaments/{tid}/players",
                               json={"name": name, "bot": "random"}).status_code == 201
        organizer = {"authorization": f"Bearer {token}"}
        assert client.post(f"/tournaments/{tid}/close", headers=organizer).status_code == 200
        assert client.post(f"/tournaments/{tid}/rounds", headers=organizer).status_code == 201
    return tid


async def test_the_tournament_page_shows_rounds_tables_and_standings_from_the_lobby(
        web_server, browser):
    """Given a bot Swiss under way, when a person opens it from the lobby and waits for its
    end, then the page shows both rounds with every table linking to its match and replay,
    the standings in the API's order with its points, the revealed seed, and no script error."""
    tid = bot_tournament(web_server)
    page = await new_page(browser)
    await page.goto(f"{web_server}/")
    await page.locator(f"li[data-tournament='{tid}']").get_by_role(
        "link", name="Rounds and standings").click()
    await page.wait_for_url(re.compile(rf"/tournament/{tid}$"))
    await page.get_by_role("heading", name=re.compile(r"Lantern Cup · finished")).wait_for(
        timeout=120_000)
    tournament = api(web_server, f"/tournaments/{tid}")
    for played in tournament["rounds"]:
        section = page.locator("section.round", has=page.get_by_role(
            "heading", name=f"Round {played['round']}"))
        for table in played["tables"]:
            row = section.locator(f"li[data-table='{table['table']}']")
            assert await row.get_by_role("link", name="Replay").get_attribute("href") == \
                f"/replay/{table['match_id']}"
            assert await row.get_by_role("link", name="Table").get_attribute("href") == \
                f"/play/{table['match_id']}"
            assert " vs ".join(table["names"]) in await row.inner_text()
    standings = api(web_server, f"/tournaments/{tid}/standings")["standings"]
    shown = await page.locator(".standings-table tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert [(row[1], row[2]) for row in shown] == [(s["name"], s["points"]) for s in standings]
    assert tournament["seed"] in await page.locator("#seed").text_content()
    await shoot(page, "tournament")
    await page.set_viewport_size(PHONE)
    await shoot(page, "tournament-phone")
    assert page.errors == []


def cancelled_tournament(base: str) -> str:
    """A 3-round bot Swiss whose organizer removed Finn in round 1, then cancelled it; its id."""
    with httpx.Client(base_url=base, timeout=30) as client:
        made = client.post("/tournaments", json={
            "name": "Snuffed Cup", "game": "wick-and-ember", "table_size": 2,
            "format": "swiss", "rounds": 3}).json()
        tid = made["tournament_id"]
        organizer = {"authorization": f"Bearer {made['organizer_token']}"}
        for name in NAMES:
            client.post(f"/tournaments/{tid}/players", json={"name": name, "bot": "random"})
        assert client.post(f"/tournaments/{tid}/close", headers=organizer).status_code == 200
        assert client.post(f"/tournaments/{tid}/rounds", headers=organizer).status_code == 201
        assert client.post(f"/tournaments/{tid}/players/5/remove", headers=organizer,
                           json={"reason": "called away"}).status_code == 200
        assert client.post(f"/tournaments/{tid}/cancel", headers=organizer).status_code == 200
    return tid


def statuses(base: str, hrefs: list[str]) -> list[int]:
    """The status each link answers."""
    with httpx.Client(base_url=base, timeout=30) as client:
        return [client.get(href).status_code for href in hrefs]


async def test_a_cancelled_tournament_says_so_and_links_its_crosstable_and_trf(web_server, browser):
    """Given a bot Swiss whose organizer removed Finn in round 1 and then cancelled it, when
    its page is opened, then the heading says cancelled, the standings give way to a sentence
    saying there are none, the recorded withdrawal is listed with its reason, and the
    crosstable (CSV and JSON) and the 2-seat event's TRF are linked, each answering 200."""
    tid = cancelled_tournament(web_server)
    page = await new_page(browser)
    await page.goto(f"{web_server}/tournament/{tid}")
    await page.get_by_role("heading", name="Snuffed Cup · cancelled").wait_for()
    assert "cancelled this tournament" in await page.locator("#cancelled").inner_text()
    assert await page.locator(".standings-table").count() == 0
    assert await page.locator("#action-list li").all_inner_texts() == [
        "Round 1 (organizer): Finn withdrew: called away"]
    links = {name: await page.get_by_role("link", name=name).get_attribute("href")
             for name in ("Crosstable (CSV)", "Crosstable (JSON)", "TRF-16")}
    assert links == {"Crosstable (CSV)": f"/tournaments/{tid}/crosstable?format=csv",
                     "Crosstable (JSON)": f"/tournaments/{tid}/crosstable",
                     "TRF-16": f"/tournaments/{tid}/trf"}
    assert statuses(web_server, list(links.values())) == [200, 200, 200]
    assert page.errors == []
