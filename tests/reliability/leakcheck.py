"""What a viewer may know, from the database's events, and what a served view or log shows.

The domain's leak test (tests/domain/wick_ember/test_wick_ember_leaks.py) follows every physical
card through the observer. Here the same question is asked of what the server actually sends:
the state is folded from the stored events (the whole truth), and every card a view shows is
counted against the cards the viewer may know: the public ones (ash, face-up set-asides, lantern
logs, a dawn, a set-aside turned up) plus, for a seat, its own hand and its Lensmaker notes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from domain.core import match
from domain.games import GAMES
from domain.wick_ember import cards
from projections.log import seat_log

GAME = GAMES["wick-and-ember"]


def knowable(table: Any, seat: int | None) -> Counter[str]:
    """The card names (with their counts) a seat, or a spectator, may know now."""
    state = table.game
    current = state.round
    if current is None:
        return Counter()
    known = [*current.ash, *current.face_up, *(c for c in current.dawn if c is not None)]
    known += [card for lamp in state.seats for card in lamp.log]
    if current.set_aside_shown and current.set_aside is not None:
        known.append(current.set_aside)
    if seat is not None:
        known += [*state.seats[seat].hand, *(n.card for n in current.notes if n.looker == seat)]
    return Counter(cards.name_of(card) for card in known)


def shown(board: dict[str, Any]) -> Counter[str]:
    """Every card a served board shows, by name (wherever the view puts cards)."""
    names = [*board["hand"], *board["ash"], *board["face_up"]]
    names += [card for seat in board["seats"] for card in seat["lantern_log"]]
    names += [note["card"] for note in board["notes"]]
    if board["set_aside"] is not None:
        names.append(board["set_aside"])
    if board["result"] is not None:
        names += [shown_at_dawn["card"] for shown_at_dawn in board["result"]["dawn"]]
    return Counter(names)


def view_problems(table: Any, seat: int | None, view: dict[str, Any]) -> list[str]:
    """How a served view differs from what the viewer may see of the stored state."""
    board, found = view["board"], []
    expected = msgspec.json.decode(msgspec.json.encode(GAME.observe(table.game, seat)))
    if board != expected:
        found.append(f"seat {seat}: the served board is not the observer's view")
    extra = shown(board) - knowable(table, seat)
    if extra:
        found.append(f"seat {seat}: shows cards it may not know: {dict(extra)}")
    if seat is None and (board["hand"] or board["notes"] or board["legal_actions"]):
        found.append("the spectator is shown a hand, a note or a seat's legal actions")
    if seat is not None and Counter(board["hand"]) != Counter(
            cards.name_of(card) for card in table.game.seats[seat].hand):
        found.append(f"seat {seat}: the hand shown is not its own")
    return found


def log_problems(events: list[Any], seat: int | None, served: dict[str, Any]) -> list[str]:
    """How a served log differs from the lines the stored events give that reader."""
    lines = msgspec.json.decode(msgspec.json.encode(seat_log(GAME, events, seat)))
    found = [] if served["entries"] == lines else [f"seat {seat}: the log differs"]
    if seat is None and any(line["private"] for line in served["entries"]):
        found.append("the public log holds a private line")
    return found


def is_table(state: Any) -> bool:
    """Whether play has begun."""
    return isinstance(state, match.Table)
