"""Two people in two browsers play a whole Wick & Ember match against the real server, then
replay it: the table, the legal actions, the log, a reload, the replay and its fairness panel."""

from __future__ import annotations

import asyncio
import re
import time

from tests.web.pages import (
    action_buttons,
    api,
    new_page,
    open_match_from_lobby,
    seat_token,
    shown_cards,
    status_of,
    take_seat,
)

WE_TITLES = {"lamp_warden": "Lamp Warden (1)", "lensmaker": "Lensmaker (2)", "gale": "Gale (3)",
             "veilkeeper": "Veilkeeper (4)", "sootsweep": "Sootsweep (5)",
             "ferrywoman": "Ferrywoman (6)", "moth_duchess": "Moth Duchess (7)",
             "hearthflame": "Hearthflame (8)"}


async def play_until_finished(pages, seconds: float = 120) -> None:
    """Whoever has moves plays the first: the first page by its number key, the rest by a click."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(["finished" in await status_of(p) for p in pages]):
            return
        for i, page in enumerate(pages):
            if await action_buttons(page).count():
                if i == 0:
                    await page.keyboard.press("1")
                else:
                    await action_buttons(page).first.click()
        await asyncio.sleep(0.1)
    raise AssertionError("the match did not finish in time")


async def test_two_browsers_play_a_whole_wick_and_ember_match_and_replay_it(web_server, browser):
    """Given Ash opens a match in the lobby and takes seat 0, and Bryn takes seat 1 in another
    browser, when Ash starts and both play from their buttons (Ash by keyboard) to the end,
    then each page drew its own hand as the API's view has it, a reload kept Ash's seat, both
    pages show the match finished, and the replay viewer shows the API's seat views at the
    versions stepped to, the revealed seed and the server's verification."""
    ash, bryn = await new_page(browser), await new_page(browser)
    match_id = await open_match_from_lobby(ash, web_server, "wick-and-ember", 2,
                                           **{"Ember Target": "2"})
    await take_seat(ash, "Ash")
    await bryn.goto(f"{web_server}/play/{match_id}")
    await take_seat(bryn, "Bryn")
    await ash.get_by_role("button", name="Start the match").click()

    for page, seat in ((ash, 0), (bryn, 1)):  # nobody moves yet: the table stands still
        await page.locator("section.hand figure.card").first.wait_for()
        view = api(web_server, f"/matches/{match_id}/view", await seat_token(page, match_id))
        await page.locator(f"#log li[data-version='{view['version']}']").first.wait_for()
        assert await shown_cards(page) == [WE_TITLES[c] for c in view["board"]["hand"]]
        assert await page.get_by_text(f"You are {['Ash', 'Bryn'][seat]} (seat {seat})").is_visible()

    await ash.reload()
    await ash.get_by_text("You are Ash (seat 0)").wait_for()
    await play_until_finished([ash, bryn])
    assert ash.errors == [] and bryn.errors == []
    assert await ash.locator("#log li.private").count() > 0  # Ash's own lines, marked as hers

    final = api(web_server, f"/matches/{match_id}")
    assert final["status"] == "finished"
    await ash.get_by_role("link", name="Replay this match").click()
    await ash.wait_for_url(re.compile(rf"/replay/{match_id}"))
    await ash.locator("#fair-verified").wait_for()
    assert await ash.locator("#fair-server-seed").inner_text() == final["server_seed"]
    assert await ash.locator("#fair-seed-commitment").inner_text() == final["seed_commitment"]
    assert (await ash.locator("#fair-verified").inner_text()).startswith("yes")
    assert await ash.locator("#download").get_attribute("href") == f"/matches/{match_id}/export"
    assert await ash.locator("#log li.private").count() > 0  # her seat's lines, kept in her browser

    # Step back from the end with the arrow keys as Bryn saw it, against the API's past views.
    await ash.locator("#as").select_option("seat-1")
    last = final["version"]
    for version in (last - 1, last - 2):
        await ash.locator("h1").click()  # focus off the select: arrows step the replay
        await ash.keyboard.press("ArrowLeft")
        await ash.get_by_text(f"Version {version} of {last}").wait_for()
        await ash.wait_for_url(re.compile(rf"v={version}&as=seat-1"))
        past = api(web_server, f"/matches/{match_id}/replay/{version}?seat=1")
        await ash.wait_for_function(
            "n => document.querySelectorAll('section.hand figure.card').length === n",
            arg=len(past["board"]["hand"]))
        assert await shown_cards(ash) == [WE_TITLES[c] for c in past["board"]["hand"]]
    assert ash.errors == []


async def test_a_game_without_a_table_of_its_own_is_played_on_the_generic_table(web_server, browser):
    """Given Tally (a test game the server carries, with no table of its own), when Ash opens a
    match in the lobby, gives the other seat to a bot and plays from the buttons to the end,
    then the generic table showed her hand as the API's view has it and the match finished."""
    ash = await new_page(browser)
    match_id = await open_match_from_lobby(ash, web_server, "tally", 2)
    await take_seat(ash, "Ash")
    await ash.locator("#bot-kind").select_option("random")
    await ash.get_by_role("button", name="Give the next seat to a bot").click()
    await ash.get_by_role("button", name="Start the match").click()
    await ash.locator(".generic-table").wait_for()
    view = api(web_server, f"/matches/{match_id}/view", await seat_token(ash, match_id))
    await ash.locator(f".board[data-version='{view['version']}']").wait_for()
    hand = ash.locator(".generic-table > dl > .pair[data-key='hand'] > dd")
    assert await hand.inner_text() == ", ".join(view["board"]["hand"])
    await play_until_finished([ash])
    assert ash.errors == []
