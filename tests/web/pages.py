"""What the browser tests do on the pages, as a person would: by labels, roles and buttons."""

from __future__ import annotations

import re
from typing import Any

import httpx

TIMEOUT = 20_000  # ms a page may take to show what a step waits for
# The strictest policy a server could send: the pages must work under it (no inline script,
# no inline style, nothing from elsewhere), whatever the server itself sends.
STRICT_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
              "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


async def under_strict_csp(route: Any) -> None:
    """Serve every page with STRICT_CSP added; let everything else (the stream) pass as it is."""
    if route.request.resource_type != "document":
        await route.continue_()
        return
    answer = await route.fetch()
    await route.fulfill(response=answer,
                        headers={**answer.headers, "content-security-policy": STRICT_CSP})


async def new_page(browser: Any, width: int = 1280, height: int = 900) -> Any:
    """A page in a fresh browser context (its own localStorage: one person), served under a
    strict Content-Security-Policy; script errors and policy violations are collected in
    ``page.errors``."""
    context = await browser.new_context(viewport={"width": width, "height": height})
    await context.route("**/*", under_strict_csp)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.errors = errors
    return page


async def open_match_from_lobby(page: Any, base: str, game: str, seats: int, **fields: str) -> str:
    """Open a match with the lobby's form of ``game``; the match id of the table it opens."""
    await page.goto(f"{base}/")
    form = page.locator(f"form[data-game='{game}']")
    await form.get_by_label("Seats").fill(str(seats))
    if fields:
        await form.get_by_text("Turn clock and options").click()  # open the optional fields
    for label, value in fields.items():
        field = form.get_by_label(label, exact=True)
        if not await field.is_visible():  # the scripted deal, under "Advanced"
            await form.get_by_text("Advanced: a scripted deal").click()
        await field.fill(value)
    await form.get_by_role("button", name=re.compile("^Open a")).click()
    await page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    return page.url.rsplit("/", 1)[1]


async def take_seat(page: Any, name: str) -> None:
    """Join the match on the page's table as ``name``."""
    await page.get_by_label("Your name").fill(name)
    await page.get_by_role("button", name="Take a seat").click()
    await page.get_by_text(re.compile(rf"You are {re.escape(name)} \(seat \d\)")).wait_for()


async def seat_token(page: Any, match_id: str) -> str:
    """The seat token this page's browser keeps for the match."""
    return await page.evaluate(
        f"JSON.parse(localStorage.getItem('hearthlog:match:{match_id}')).token")


def api(base: str, path: str, token: str | None = None) -> dict[str, Any]:
    """A GET of the API, with a token if given."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{base}{path}", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def action_buttons(page: Any) -> Any:
    """The page's enabled move buttons."""
    return page.locator("button.action:not([disabled])")


async def status_of(page: Any) -> str:
    """What the table's heading says of the match ("... · finished")."""
    return await page.locator("#title").inner_text()


async def shown_cards(page: Any, where: str = "section.hand > .row") -> list[str]:
    """The names of the cards the page draws in a part of the table (their aria-labels)."""
    return await page.locator(f"{where} figure.card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))")
