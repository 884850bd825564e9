"""Playing a table as a person does: pick a card or a move, then its kind, target and option,
and in a chooser of cards pick a set, then send it (service/http/web/js/picker.js)."""

from __future__ import annotations

import asyncio
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError

from tests.web.pages import status_of

MOVES = "#action-list button.action:not([disabled]):not(.back)"
CLICK = 3_000  # ms a click waits for its button: a step redrawn meanwhile is picked again


@dataclass
class Picks:
    """What a seat did on its way through a match: every click, the moves sent (its commands
    posted), the clicks that opened a further step, and the sets of cards chosen in a chooser."""

    clicks: int = 0
    sent: int = 0
    steps: int = 0
    chosen_sets: int = 0
    first_move_y: list[float] = field(default_factory=list)


async def pick_once(page: Any, rng: random.Random, picks: Picks,
                    prefer: tuple[str, ...] = ()) -> bool:
    """One click toward a move: in a chooser, change the chosen set where any set is legal
    (a discard), then send; elsewhere a seeded choice among the step's moves. False when the
    page offers nothing to click. Moves matching the first pattern of ``prefer`` that any
    matches are chosen 4 times in 5. A step redrawn under the click (another seat's move changed
    the seat's moves: Ember's abilities out of turn) is picked again."""
    try:
        return await _pick(page, rng, picks, prefer)
    except PlaywrightError:
        return True


async def _pick(page: Any, rng: random.Random, picks: Picks, prefer: tuple[str, ...]) -> bool:
    """pick_once, which may fail when the step is redrawn under it."""
    if await page.locator("#action-list .chooser").count():
        on = page.locator("#action-list .chooser button.pick[aria-pressed=true]")
        off = page.locator("#action-list .chooser button.pick[aria-pressed=false]")
        free = await page.locator("#action-list .chooser p.meta").count() == 0  # no rule: any set
        if free and await on.count() and await off.count() and not picks.chosen_sets % 2:
            await on.first.click(timeout=CLICK)
            await off.nth(rng.randrange(await off.count())).click(timeout=CLICK)
        send = page.locator("#action-list .chooser button.primary:not([disabled])")
        await send.click(timeout=CLICK)
        picks.chosen_sets += 1
        picks.clicks += 1
        return True
    moves = page.locator(MOVES)
    count = await moves.count()
    if not count:
        return False
    texts = await moves.all_inner_texts()
    liked: list[int] = []
    for wanted in prefer:  # the first kind of move the step offers, in order of preference
        liked = liked or [i for i, text in enumerate(texts) if re.search(wanted, text)]
    pick = rng.choice(liked) if liked and rng.random() < 0.8 else rng.randrange(count)
    await moves.nth(pick).click(timeout=CLICK)
    picks.clicks += 1
    return True


async def play_to_the_end(page: Any, seed: int, seconds: float = 600,
                          on_turn: Any = None, prefer: tuple[str, ...] = ()) -> Picks:
    """Pick moves until the match is finished; ``on_turn(page, picks)`` is awaited each time a
    turn's first step is shown (for screenshots and checks)."""
    rng, picks = random.Random(seed), Picks()

    def sent(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/commands"):
            picks.sent += 1

    page.on("request", sent)
    deadline = time.monotonic() + seconds
    while "finished" not in await status_of(page):
        assert time.monotonic() < deadline, "the match did not finish in time"
        first_step = await page.locator("#action-list .back").count() == 0
        if await page.locator(MOVES).count() and first_step and on_turn is not None:
            await on_turn(page, picks)
        if not await pick_once(page, rng, picks, prefer):
            await asyncio.sleep(0.05)  # the bots' turns: wait for the stream
    picks.steps = picks.clicks - picks.sent
    return picks
