"""Every game played to its end from the lobby by picking cards and targets, at desktop and
phone sizes, in Debian's Chromium: the table drawn, the moves on the first screen of a phone,
focus kept on the moves, the tab's title on the seat's turn, a card's text on hover and tap,
axe-core's serious and critical violations none, the screenshots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.accessibility import blocking_violations
from tests.web.pages import api, new_page, open_match_from_lobby, seat_token, take_seat
from tests.web.picking import Picks, play_to_the_end

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
# The text of an open reaction window the seat may answer (None without one).
WINDOW = """(() => {
  const w = document.querySelector('.window');
  return w && w.textContent.includes('May answer now: Ash') ? w.textContent : null;
})()"""
# Where the first move button ends, from the top of the page (None while it is redrawn).
FIRST_MOVE_BOTTOM = """(() => {
  const b = document.querySelector('#action-list button.action');
  return b ? b.getBoundingClientRect().bottom + window.scrollY : null;
})()"""
# The lobby's scripted deal (under "Advanced"; it makes the match a practice one).
SCRIPT = "JSON object with any of: deal"
# Wick & Ember's first round at three seats: Ash (seat 0) opens holding a Lamp Warden and draws a
# Lensmaker, so whichever card her first move plays, it is picked in more than one step (a
# Lamp Warden's target and guess, a Lensmaker's target among two).
WE_DEAL = json.dumps({"deal": [[
    "hearthflame",  # set aside face down
    "lamp_warden", "lensmaker", "lensmaker",  # Ash's card, then each bot's
    "lensmaker",  # Ash's first draw
    "lamp_warden", "lamp_warden", "lamp_warden", "gale", "gale", "veilkeeper", "veilkeeper",
    "sootsweep", "sootsweep", "ferrywoman", "moth_duchess"]]})
# Deathwick at two seats: the bot's Candle opens with every ace, three, four and six, so each
# card it holds Haunts Ash or is Cast at her (Sight, Scare, Drain, Claim), and each of those
# opens a window Ash answers; only a Pass (one move of nine or more) opens none.
DW_SCRIPT = "JSON object with any of: candles, dark, offers"
DW_DEAL = json.dumps({"candles": [[], [f"{rank}{suit}" for rank in "A346" for suit in "SHCD"]]})
# Ember: Ash (seat 0, dealt the deck's first five) holds the four sevens and an Archmage, so
# every creature she can conjure (a pair, a trio, a spellbook, a quartet) is paid by more than
# one handful of them, and a conjure asks her to choose the cards paid.
EMBER_SCRIPT = "JSON object with any of: deck, tutors, artifacts"
EMBER_DEAL = json.dumps({"deck": ["air-7", "earth-7", "fire-7", "water-7", "archmage"]})
# (game, seats, the lobby's fields that keep a match short, what its table draws)
GAMES = [
    ("wick-and-ember", 3, {"Ember Target": "2", "Opener": "0", SCRIPT: WE_DEAL}, ".we .seats-ring"),
    ("whiteout-road", 2, {}, "svg.road"),
    ("deathwick", 2, {"Turn clock (seconds)": "600", DW_SCRIPT: DW_DEAL}, ".dw .seats-ring"),
    ("ember", 2, {"Turn Cap": "10", "Call At": "20", EMBER_SCRIPT: EMBER_DEAL}, "section.pool"),
]
# Moves a seat prefers, so that a match reaches what the test is after: Ember's conjures and
# draws fill hands past their size and ask for payments, which its choosers serve.
PREFER = {"ember": ("paying|discarding", "Conjure", "Draw a card|Recycle")}


async def seat_bots(page: Any, bots: int) -> None:
    """Give the free seats to random bots and start the match."""
    for _ in range(bots):
        await page.locator("#bot-kind").select_option("random")
        await page.get_by_role("button", name="Give the next seat to a bot").click()
    await page.get_by_role("button", name="Start the match").click()


@pytest.mark.slow
@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize(("game", "seats", "fields", "drawn"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_whole_match_is_played_from_the_lobby_by_picking(
        web_server, browser, game, seats, fields, drawn, size):
    """Given Ash opens a match in the lobby, takes a seat and gives the rest to bots, when she
    plays to the end by picking (a card, then its kind, target and option; a set of cards in a
    chooser), then her game's own table is drawn, her first move is on the first screen (a
    phone's 844 px too), focus stays on the moves after each move, the match finishes with no
    script error, and axe-core finds no serious or critical violation during play or at the end."""
    width, height = SIZES[size]
    page = await new_page(browser, width, height)
    match_id = await open_match_from_lobby(page, web_server, game, seats, **fields)
    await take_seat(page, "Ash")
    await seat_bots(page, seats - 1)
    await page.locator(drawn).first.wait_for()
    checked: dict[str, Any] = {"turns": 0, "axe": None, "titles": set(), "windows": []}

    async def on_turn(page: Any, picks: Picks) -> None:
        """At the first step of a turn: where the first move is, focus, a screenshot, axe."""
        checked["turns"] += 1
        checked["titles"].add((await page.title()).split(" · ")[0])
        window = await page.evaluate(WINDOW)  # Deathwick: a reaction window Ash may answer
        if window is not None:
            checked["windows"].append(window)
        bottom = await page.evaluate(FIRST_MOVE_BOTTOM)
        if bottom is not None:
            picks.first_move_y.append(bottom)
        if checked["turns"] > 1:  # after a move, focus is on the moves, not the page
            assert await page.evaluate("!!document.activeElement.closest('#actions')")
        if checked["turns"] == 1:  # a card's text from the game's data, on hover, then on a tap
            card = page.locator(".board [data-card]").first
            await card.hover()
            await page.locator("#card-info").wait_for()
            checked["card text"] = await page.locator("#card-info").inner_text()
            await page.keyboard.press("Escape")
            await card.click()
            await page.locator("#card-info").wait_for()
            await page.keyboard.press("Escape")
            await page.locator("#actions").focus()
        if checked["turns"] in (1, 3):  # the opening, and mid-match where it lasts that long
            checked["axe"] = (checked["axe"] or []) + await blocking_violations(page)
            await page.evaluate("window.scrollTo(0, 0)")
            await page.screenshot(path=str(SHOTS / f"play-{game}-{size}.png"),
                                  full_page=size == "desktop")

    picks = await play_to_the_end(page, seed=len(game) + width, on_turn=on_turn,
                                  prefer=PREFER.get(game, ()))
    assert page.errors == []
    assert checked["axe"] == [], checked["axe"]
    assert await blocking_violations(page) == []  # the finished table
    assert picks.sent > 0 and picks.steps > 0  # some moves took more than one pick
    assert "▶ Your turn" in checked["titles"]  # the tab's title signals the seat's turn
    cards = {c["code"]: c for c in api(web_server, f"/games/{game}")["cards"]}
    assert any(c["name"] in checked["card text"] and c["text"] in checked["card text"]
               for c in cards.values())  # the box said what a card of the table does
    assert max(picks.first_move_y) <= height, picks.first_move_y  # on the first screen
    view = api(web_server, f"/matches/{match_id}/view", await seat_token(page, match_id))
    assert view["status"] == "finished"
    await page.get_by_text("How to play").click()  # the rules panel, and a card's text on a tap
    assert await page.locator("#rules p").count() > 0
    if game == "deathwick":  # each window Ash could answer showed its clock
        assert checked["windows"]  # the bot's scripted hands haunt her or cast at her
        assert all("The window's clock: Ash by" in text for text in checked["windows"])
    if game == "ember":
        assert picks.chosen_sets > 0  # a discard or a payment chosen in a chooser
