"""Where every card is and what each reader may know: for tests and verifiers, never for players."""

from __future__ import annotations

from domain.whiteout_road.cards import CARDS, EVERY_CARD, title
from domain.whiteout_road.state import State, Table, Unopened


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


def knowable(state: State, seat: int | None) -> set[str]:
    """The cards a seat (None: a spectator) may know now (R11)."""
    board = getattr(state, "board", None)
    if board is None:
        return set()
    known = {*board.fate_discard, *board.lost, *(play.card for play in board.revealed)}
    for cart in board.wagons:
        known |= {s.card for s in (*cart.stores, *cart.pushes, *cart.flung)}
    for traveller in state.seats:
        known |= set(traveller.watch)
    if seat is not None:
        mine = state.seats[seat]
        known |= {*mine.hand, *mine.set_aside}
        known |= set() if mine.pending is None else {mine.pending.card}
    return known


def secrets(state: State | Unopened, seat: int | None) -> frozenset[str]:
    """R11 as text: every card the reader may not know, as views ("7C") and lines ("7 of clubs")
    write it (each card is unique, so any mention of one is a leak). The whiteout is always
    shuffled into Fate, which everyone is told; only its place in Fate is hidden, and no single
    word tells that (tests/domain/whiteout_road/test_whiteout_road_leaks.py checks Fate's order)."""
    if isinstance(state, Unopened) or state.board is None:
        return frozenset()
    hidden = set(CARDS) - knowable(state, seat)
    return frozenset(hidden | {title(card).removeprefix("the ") for card in hidden})
