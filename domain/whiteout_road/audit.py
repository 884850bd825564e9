"""Where every card is: a helper for tests and verifiers, never shown to a player."""

from __future__ import annotations

from domain.whiteout_road.cards import EVERY_CARD
from domain.whiteout_road.state import Table


def card_locations(state: Table) -> dict[str, list[str]]:
    """Every card and the whiteout, with each place it lies (exactly one, if sound)."""
    places: dict[str, list[str]] = {card: [] for card in EVERY_CARD}
    if state.board is None:
        return places
    for place, found in _places(state):
        for card in found:
            places[card].append(place)
    return places


def all_cards(state: Table) -> list[str]:
    """Every card lying anywhere on the table, once per place it lies in (a quick check)."""
    board = state.board
    assert board is not None
    found = [*board.fate, *board.fate_discard, *board.lost]
    found += [play.card for play in board.revealed]
    found += [s.card for cart in board.wagons for s in (*cart.stores, *cart.pushes, *cart.flung)]
    for t in state.seats:
        found += t.hand
        found += t.watch
        found += t.set_aside
        if t.pending is not None:
            found.append(t.pending.card)
    return found


def _places(state: Table) -> list[tuple[str, tuple[str, ...]]]:
    """Each place on the table with the cards in it."""
    board = state.board
    assert board is not None
    spots = [
        ("fate", board.fate),
        ("fate_discard", board.fate_discard),
        ("revealed", tuple(play.card for play in board.revealed)),
        ("lost", board.lost),
    ]
    for cart in board.wagons:
        for pile in ("stores", "pushes", "flung"):
            spots.append((f"{cart.name}/{pile}", tuple(s.card for s in getattr(cart, pile))))
    for seat, t in enumerate(state.seats):
        pending = () if t.pending is None else (t.pending.card,)
        spots += [
            (f"hand/{seat}", t.hand),
            (f"pending/{seat}", pending),
            (f"watch/{seat}", t.watch),
            (f"set_aside/{seat}", t.set_aside),
        ]
    return spots
