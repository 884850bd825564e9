"""Leak test: no view and no log line shows a viewer a card identity it may not know (W16).

Views and logs show cards by name, and names repeat, so the test renames every physical card
as it leaves the rules ("gale#7", through cards.shown_name and cards.shown_title) and then
checks each serialized view and log line against the identities the viewer may know, computed
here from the state: the public cards (ash, lantern logs, face-up set-asides, a dawn, a set-aside
turned up) plus, for a seat, its own hand and its Lensmaker notes.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest
from wick_ember_random import random_match

from domain.wick_ember import GAME, cards, log, observer
from domain.wick_ember.audit import knowable
from domain.wick_ember.events import TurnBegan
from tests import sampling
from tests.domain.random_play import event_steps

BUDGET, FULL = 150, 1500  # random matches a run, and under `make sample-all`
TOKEN = re.compile(r"#(\d+)")


@pytest.fixture
def tagged_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card leaving the rules carries its identity, so a leak becomes visible."""
    monkeypatch.setattr(cards, "shown_name", lambda card: f"{cards.name_of(card)}#{card}")
    monkeypatch.setattr(
        cards, "shown_title", lambda card: f"{cards.TITLES[cards.name_of(card)]}#{card}"
    )


@sampling.MARK
def test_w16_random_matches_leak_no_hidden_card_to_any_seat_or_spectator(tagged_cards):
    """W16: after every event, every view and every readable log line shows only knowable cards
    (a sampling test: tests/sampling.py)."""
    for index in map(sampling.index, sampling.samples(BUDGET, FULL)):
        assert leaks_in_match(index) == [], f"match {index}"


def test_the_leak_check_catches_a_view_that_shows_another_seats_hand(tagged_cards, monkeypatch):
    """The check can fail: a view showing the next seat's hand is caught."""

    def leaky(state: Any, seat: int | None) -> tuple[str, ...]:
        """The next seat's hand instead of your own."""
        return (
            () if seat is None else observer._names(state.seats[(seat + 1) % len(state.seats)].hand)
        )

    monkeypatch.setattr(observer, "_your_hand", leaky)
    assert leaks_in_match(0) and leaks_in_match(1)


def test_the_leak_check_catches_a_log_that_makes_a_draw_public(tagged_cards, monkeypatch):
    """The check can fail: a public line naming the card drawn is caught."""
    writers = dict(log._WRITERS)
    writers[TurnBegan] = lambda before, event: [log._say(f"drew {log._the(event.drew)}")]
    monkeypatch.setattr(log, "_WRITERS", writers)
    assert any("drew" in leak for leak in leaks_in_match(2))


def leaks_in_match(index: int) -> list[str]:
    """Every leak found in one random match."""
    found: list[str] = []
    for before, event, after in event_steps(random_match(index)):
        for viewer in [None, *range(after.night.seats)]:
            found += leaks(
                msgspec.json.encode(GAME.observe(after, viewer)).decode(), knowable(after, viewer)
            )
        for entry in GAME.log_entries(before, event):
            allowed = knowable(after, entry.seat) | same_round(before, after, entry.seat)
            found += leaks(entry.text, allowed)
    return found


def leaks(text: str, allowed: set[int]) -> list[str]:
    """The card identities in a text that the reader may not know."""
    shown = {int(card) for card in TOKEN.findall(text)}
    return [f"{sorted(shown - allowed)} in {text[:200]}"] if shown - allowed else []


def same_round(before: Any, after: Any, seat: int | None) -> set[int]:
    """What the reader knew just before, if the event did not start a new round (ids are reused)."""
    if before is None or before.round is None or before.round.number != after.round.number:
        return set()
    return knowable(before, seat)


