"""Leak tests (R11): no view or log line shows a card its reader may not know, nor another seat's
pending play, nor Fate's order.

Two checks over random matches.  The card check reads every card named in every serialized view
("7C") and every log line ("the 7 of clubs") and compares it with what the reader may know,
computed here from the state: the public cards (Fate's discard, the wagons' stores, pushes and
flings, revealed and lost cards, watch-piles) plus, for a seat, its own hand, pending card and
set-aside cards.  The hidden-play check changes what the rules hide, a seat's pending play or the
order of Fate, and demands that nothing anyone else may read changes with it.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from typing import Any

import msgspec
from whiteout_road_random import random_match

from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road import log, observer
from domain.whiteout_road.audit import knowable
from domain.whiteout_road.cards import RANK_NAMES, SUIT_NAMES, is_spade
from domain.whiteout_road.events import Commitment, PlayCommitted
from domain.whiteout_road.legal import gambit_play
from domain.whiteout_road.state import Beat, Gambit, with_board, with_seat
from tests import sampling
from tests.domain.random_play import event_steps

BUDGET, FULL = 30, 300  # random matches a run, and under `make sample-all`
NAME = re.compile(r'"((?:10|[2-9JQK])[HDCS])"')
TITLE = re.compile(r"\b(10|[2-9]|Jack|Queen|King) of (hearts|diamonds|clubs|spades)\b")
RANK_OF = {title: rank for rank, title in RANK_NAMES.items()}
SUIT_OF = {title: suit for suit, title in SUIT_NAMES.items()}


@sampling.MARK
def test_r11_random_matches_show_no_reader_a_card_it_may_not_know():
    """R11: after every event, every view and every readable log line names only knowable cards."""
    for index in map(sampling.index, sampling.samples(BUDGET, FULL)):
        assert card_leaks(index) == [], f"match {index}"


@sampling.MARK
def test_r11_random_matches_show_nobody_a_pending_play_or_fates_order():
    """R11: what others read is the same whatever a seat committed and whatever Fate holds."""
    for index in map(sampling.index, sampling.samples(BUDGET, FULL)):
        assert hidden_leaks(index) == [], f"match {index}"


def test_the_checks_catch_a_view_that_shows_the_next_seats_pending_card(monkeypatch):
    """Both checks can fail: a view showing another seat's commitment is caught."""

    def leaky(state: Any, seat: int | None) -> Any:
        """The next seat's pending card instead of your own."""
        other = 0 if seat is None else (seat + 1) % len(state.seats)
        pending = state.seats[other].pending
        return None if pending is None else observer.CommitmentView(
            card=pending.card, play=pending.play, wagon=pending.wagon
        )

    monkeypatch.setattr(observer, "_your_commitment", leaky)
    assert card_leaks(0) and hidden_leaks(0)


def test_the_checks_catch_a_public_line_naming_the_committed_card(monkeypatch):
    """Both checks can fail: a log that makes the commitment line public is caught."""
    writers = dict(log._WRITERS)
    writers[PlayCommitted] = lambda before, event: [log._say(f"X played {log.title(event.card)}")]
    monkeypatch.setattr(log, "_WRITERS", writers)
    assert card_leaks(1) and hidden_leaks(1)


def test_the_hidden_play_check_catches_a_view_that_tells_only_the_play(monkeypatch):
    """The hidden-play check can fail where the card check cannot: the play alone is shown."""
    original = observer._player

    def leaky(state: Any, seat: int, viewer: int | None) -> Any:
        """A seat's public face with its pending play in its name."""
        face = original(state, seat, viewer)
        pending = state.seats[seat].pending
        return msgspec.structs.replace(face, name=f"{face.name} ({pending and pending.play})")

    monkeypatch.setattr(observer, "_player", leaky)
    assert card_leaks(2) == [] and hidden_leaks(2)


def test_the_hidden_play_check_catches_a_view_that_peeks_at_fate(monkeypatch):
    """Both checks can fail: a Fate size that tells the top card's suit is caught."""
    original = observer.observe

    def leaky(state: Any, seat: int | None) -> Any:
        """The view with the top of Fate shown in the discard."""
        view = original(state, seat)
        board = state.board
        if board is None or not board.fate:
            return view
        return msgspec.structs.replace(view, fate_discard=(*view.fate_discard, board.fate[0]))

    monkeypatch.setattr(observer, "observe", leaky)
    monkeypatch.setattr(sys.modules[__name__], "GAME", dataclasses.replace(GAME, observe=leaky))
    assert card_leaks(3) and hidden_leaks(3)


def card_leaks(index: int) -> list[str]:
    """Every card shown to a reader who may not know it, in one random match."""
    found: list[str] = []
    for before, event, after in event_steps(random_match(index)):
        for viewer in [None, *range(len(after.seats))]:
            text = msgspec.json.encode(GAME.observe(after, viewer)).decode()
            found += unknown(NAME.findall(text), knowable(after, viewer), text)
        for entry in GAME.log_entries(before, event):
            allowed = knowable(after, entry.seat) | knowable(before, entry.seat)
            found += unknown(titled(entry.text), allowed, entry.text)
    return found


def hidden_leaks(index: int) -> list[str]:
    """Every view or line that changes with another seat's pending play or with Fate's order."""
    found: list[str] = []
    for before, event, after in event_steps(random_match(index)):
        if isinstance(event, PlayCommitted):
            found += commitment_lines_differ(before, event)
        if isinstance(after, (Beat, Gambit)) and after.board is not None:
            found += views_differ(after, with_board(after, fate=after.board.fate[::-1]), None)
            for seat, traveller in enumerate(after.seats):
                other = None if traveller.pending is None else swapped(after, seat)
                if other is not None:
                    found += views_differ(after, other, seat)
    return found


def views_differ(state: Any, other: Any, owner: int | None) -> list[str]:
    """The readers other than ``owner`` whose view differs between two states."""
    readers = [None, *(s for s in range(len(state.seats)) if s != owner)]
    return [
        f"seat {reader} can tell {owner}'s pending play or Fate's order"
        for reader in readers
        if GAME.observe(state, reader) != GAME.observe(other, reader)
    ]


def swapped(state: Any, seat: int) -> Any:
    """The state with the seat's pending card or play replaced by another it could have sent."""
    pending: Commitment = state.seats[seat].pending
    hand = state.seats[seat].hand
    alternatives = [c for c in hand if c != pending.card]
    if isinstance(state, Gambit):
        choice = gambit_play(alternatives[0]) if alternatives else None
    elif pending.play != "feed":
        choice = msgspec.structs.replace(pending, play="feed", wagon=None)
    elif not is_spade(pending.card):
        choice = msgspec.structs.replace(pending, play="push")
    else:
        choice = Commitment(seat=seat, card=alternatives[0], play="feed") if alternatives else None
    if choice is None:
        return None
    replacement = Commitment(seat=seat, card=choice.card, play=choice.play, wagon=choice.wagon)
    new_hand = tuple(c for c in (*hand, pending.card) if c != replacement.card)
    return with_seat(state, seat, hand=new_hand, pending=replacement)


def commitment_lines_differ(before: Any, event: PlayCommitted) -> list[str]:
    """The lines others may read are the same whichever card and play were committed."""
    other = msgspec.structs.replace(event, card="WHITEOUT", play="watch", wagon=None)
    shown = [(e.seat, e.text) for e in GAME.log_entries(before, event) if e.seat != event.seat]
    instead = [(e.seat, e.text) for e in GAME.log_entries(before, other) if e.seat != event.seat]
    return [] if shown == instead else [f"the commitment line changes with the card: {shown}"]


def titled(text: str) -> list[str]:
    """The cards a log line names ('the 7 of clubs' -> '7C')."""
    return [RANK_OF.get(rank, rank) + SUIT_OF[suit] for rank, suit in TITLE.findall(text)]


def unknown(cards: list[str], allowed: set[str], text: str) -> list[str]:
    """The cards shown that the reader may not know."""
    hidden = sorted(set(cards) - allowed)
    return [f"{hidden} in {text[:160]}"] if hidden else []


