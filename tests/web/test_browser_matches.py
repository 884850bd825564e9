"""The longer browser tests (the slow suite): three pages committing at once in Whiteout Road,
a page playing bots to the end, every version of a replay from two seats against the API, a
spectator page that never shows a hidden card; and the screenshots in docs/screenshots/."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import httpx
import pytest

from domain.core import match
from domain.core.codec import event_decoder
from tests.games.conformance import secrets_of, shows
from tests.live.live_support import WICK
from tests.live.stream_client import stored_events
from tests.web.pages import (
    action_buttons,
    api,
    new_page,
    open_match_from_lobby,
    shown_cards,
    status_of,
    take_seat,
)

pytestmark = pytest.mark.slow
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
WORDS = {"J": "Jack", "Q": "Queen", "K": "King"}
SUITS = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}


def wr_label(card: str) -> str:
    """How the page labels a Whiteout Road card: '10H' -> '10 of hearts (10)'."""
    rank, suit = card[:-1], card[-1]
    return f"{WORDS.get(rank, rank)} of {SUITS[suit]} ({rank})"


async def shoot(page, name: str) -> None:
    """A full-page PNG of what the page shows, at its width, into docs/screenshots/; nothing
    on it may be wider than the screen (no sideways scrolling on a phone)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (name, width)


async def test_three_pages_commit_at_once_in_whiteout_road(web_server, browser):
    """Given three people at a Whiteout Road table in three browsers, when all three press
    their first move at the same moment, beat after beat, then every beat is turned up with
    all three cards and each page shows the same road as the spectator's API view."""
    pages = [await new_page(browser) for _ in range(3)]
    match_id = await open_match_from_lobby(pages[0], web_server, "whiteout-road", 3)
    for page, name in zip(pages, ["Ash", "Bryn", "Cole"]):
        if page is not pages[0]:
            await page.goto(f"{web_server}/play/{match_id}")
        await take_seat(page, name)
    await pages[0].get_by_role("button", name="Start the match").click()
    for beat in range(3):
        for page in pages:  # each picks its first card, up to the step that sends a move
            await action_buttons(page).first.wait_for()
            while re.search(r"\(\d+\)$", await action_buttons(page).first.inner_text()):
                await page.keyboard.press("1")
        await asyncio.gather(*(page.keyboard.press("1") for page in pages))
        await pages[0].get_by_text(re.compile(r"The cards are turned up")).nth(beat).wait_for()
    view = api(web_server, f"/matches/{match_id}/view")
    for page in pages:
        await page.locator(f".board[data-version='{view['version']}']").wait_for()
        positions = await page.locator("svg.road").get_attribute("aria-label")
        for wagon in view["board"]["wagons"]:
            assert f"on space {wagon['position']} of 6" in positions
        assert page.errors == []

    # Cole concedes: the button asks again before it gives up, and every table shows it.
    cole = pages[2]
    await cole.get_by_role("button", name="Concede").click()
    await cole.get_by_role("button", name="Really concede? Press again").click()
    for page in pages:
        await page.locator("section.seat[data-seat='2'] .badge", has_text="conceded").wait_for()
    assert [p["conceded"] for p in api(web_server, f"/matches/{match_id}/view")["board"]["players"]] == [False, False, True]


async def test_a_page_plays_bots_to_the_end_with_a_clock_and_the_replay_matches_the_api(web_server, browser):
    """Given Ash in a browser at a Whiteout Road table with a turn clock, the other seat given
    to a bot from the page, when Ash plays from the buttons to the end, then the clock counted
    down, the match finished, and in the replay viewer every version from Ash's seat and the
    bot's seat draws the hand and the road the API's past view has."""
    ash = await new_page(browser)
    match_id = await open_match_from_lobby(ash, web_server, "whiteout-road", 2,
                                           **{"Turn clock (seconds)": "300"})
    await take_seat(ash, "Ash")
    await ash.get_by_role("button", name="Give the next seat to a bot").click()
    await ash.get_by_role("button", name="Start the match").click()
    await ash.get_by_text(re.compile(r"Your clock: [45]:\d\d left")).wait_for()
    await shoot(ash, "whiteout-road-vs-bot")
    await ash.set_viewport_size(PHONE)
    await shoot(ash, "whiteout-road-phone")
    await ash.set_viewport_size({"width": 1280, "height": 900})
    deadline = time.monotonic() + 240
    while "finished" not in await status_of(ash):
        assert time.monotonic() < deadline, "the match did not finish in time"
        if await action_buttons(ash).count():
            await action_buttons(ash).first.click()
        await asyncio.sleep(0.05)
    assert ash.errors == []

    await ash.goto(f"{web_server}/replay/{match_id}?v=1&as=seat-0")
    await ash.locator("#fair-verified").wait_for()
    last = api(web_server, f"/matches/{match_id}")["version"]
    for seat in (0, 1):
        await ash.locator("#as").select_option(f"seat-{seat}")
        await ash.locator("h1").click()
        await ash.keyboard.press("Home")
        for version in range(1, last + 1):
            past = api(web_server, f"/matches/{match_id}/replay/{version}?seat={seat}")
            await ash.locator(f"#position:text-is('Version {version} of {last}')").wait_for()
            if past["board"] is not None:
                await ash.locator(f".board[data-version='{version}']").wait_for()
                cards = await shown_cards(ash)
                assert cards == [wr_label(c) for c in past["board"]["hand"]], (seat, version)
                road = await ash.locator("svg.road").get_attribute("aria-label")
                for wagon in past["board"]["wagons"]:
                    assert f"{wagon['wagon'].title()} wagon on space {wagon['position']} of 6" in road
            if version < last:
                await ash.keyboard.press("ArrowRight")
    await shoot(ash, "replay-viewer")
    assert ash.errors == []


async def test_a_spectator_page_never_shows_a_hidden_card(web_server, browser):
    """Given a Wick & Ember match of three bots watched in a browser with no seat, then at every
    version the page drew, nothing on it (text or card labels) names a card the game's secrets
    say a spectator may not know at that version, folded from the stored events; and the page
    has no hand and no private log line."""
    async with httpx.AsyncClient(base_url=web_server, timeout=30) as client:
        created = (await client.post("/matches", json={"game": "wick-and-ember", "seats": 3})).json()
        match_id = created["match_id"]
        watcher = await new_page(browser)
        await watcher.goto(f"{web_server}/play/{match_id}")
        await watcher.get_by_text("You are watching as a spectator.").wait_for()
        for _ in range(3):
            await client.post(f"/matches/{match_id}/seats", json={"bot": "careful"})
        await client.post(f"/matches/{match_id}/start",
                          headers={"authorization": f"Bearer {created['host_token']}"})
    seen: dict[int, str] = {}  # version -> what the page drew of the table then
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        # The card counter names every rank whatever the state (its counts are public: the
        # deck less the cards shown), so its names are no sign of a leak and are left out.
        drawn = await watcher.evaluate("""() => {
            const shown = document.querySelector('.board');
            if (!shown) return null;
            const board = shown.cloneNode(true);
            board.querySelectorAll('.counter').forEach((e) => e.remove());
            const labels = [...board.querySelectorAll('[aria-label], [title]')].map(
                e => `${e.getAttribute('aria-label')} ${e.getAttribute('title')}`);
            return [Number(shown.dataset.version), board.textContent + '\\n' + labels.join('\\n')];
        }""")
        if drawn:
            seen.setdefault(drawn[0], drawn[1])
        if "finished" in await status_of(watcher):
            break
        await asyncio.sleep(0.02)
    assert "finished" in await status_of(watcher)
    decoder = event_decoder(WICK)
    rows = await stored_events(web_server.database_url, match_id)
    events = [decoder.decode(row["data"].encode()) for row in rows]
    commands = [row["version"] for row in rows if '"command"' in row["metadata"]]
    assert len(seen) > 3
    for version, text in seen.items():  # the table, against the state it was drawn at
        state = match.fold(WICK, events[:version])
        assert shows(secrets_of(WICK, state, None), text) == [], version
    lines = await watcher.locator("#log li").evaluate_all(
        "items => items.map(li => [Number(li.dataset.version), li.innerText])")
    assert len(lines) > 10
    def state(version: int) -> match.MatchState | None:
        """The match after ``version`` (None before the first event)."""
        return match.fold(WICK, events[:version]) if version else None

    for version, text in lines:
        # As the conformance suite reads a line: it may name what its event reveals, or what
        # its command said aloud (a Warden's guess), so a value leaks only if it was hidden
        # when the command was sent, just before the event and just after it.
        sent = max((v for v in commands if v <= version), default=1) - 1
        hidden = (secrets_of(WICK, state(sent), None) & secrets_of(WICK, state(version - 1), None)
                  & secrets_of(WICK, state(version), None))
        assert shows(hidden, text) == [], (version, text)
    assert await watcher.locator("section.hand").count() == 0
    assert await watcher.locator("#log li.private").count() == 0
    assert watcher.errors == []


async def test_screenshots_of_the_lobby_and_a_wick_and_ember_table(web_server, browser):
    """Given the lobby and a Wick & Ember table in play, then both are drawn without a script
    error at desktop and phone widths (the PNGs go to docs/screenshots/ for the README)."""
    page = await new_page(browser)
    match_id = await open_match_from_lobby(page, web_server, "wick-and-ember", 3,
                                           **{"Turn clock (seconds)": "120"})
    await take_seat(page, "Ash")
    await page.goto(f"{web_server}/")
    await page.locator(f"li[data-match='{match_id}']").wait_for()
    await page.locator("form[data-game='wick-and-ember']").get_by_text("Turn clock and options").click()
    await shoot(page, "lobby")
    await page.set_viewport_size(PHONE)
    await shoot(page, "lobby-phone")
    await page.set_viewport_size({"width": 1280, "height": 900})
    await page.goto(f"{web_server}/play/{match_id}")
    for _ in range(2):
        await page.get_by_role("button", name="Give the next seat to a bot").click()
        await page.get_by_text(re.compile(r"Bot \d \(random bot\)")).last.wait_for()
    await page.get_by_role("button", name="Start the match").click()
    await action_buttons(page).first.wait_for()
    await shoot(page, "wick-and-ember-table")
    await page.set_viewport_size(PHONE)
    await shoot(page, "wick-and-ember-phone")
    assert page.errors == []


async def test_screenshots_of_the_generic_table_and_the_replay_on_a_phone(web_server, browser):
    """Given a Tally match (no table of its own) played against a bot, then its generic table
    and its replay are drawn without a script error, at desktop and phone widths."""
    page = await new_page(browser)
    match_id = await open_match_from_lobby(page, web_server, "tally", 2)
    await take_seat(page, "Ash")
    await page.get_by_role("button", name="Give the next seat to a bot").click()
    await page.get_by_role("button", name="Start the match").click()
    await action_buttons(page).first.wait_for()
    await shoot(page, "generic-table")
    deadline = time.monotonic() + 120
    while "finished" not in await status_of(page):
        assert time.monotonic() < deadline, "the match did not finish in time"
        if await action_buttons(page).count():
            await action_buttons(page).first.click()
        await asyncio.sleep(0.05)
    await page.set_viewport_size(PHONE)
    await page.goto(f"{web_server}/replay/{match_id}?v=6&as=seat-0")
    await page.locator("#fair-verified").wait_for()
    await shoot(page, "replay-phone")
    assert page.errors == []
