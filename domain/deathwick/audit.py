"""Where every card is and what each reader may know: for tests and verifiers, never for players."""

from __future__ import annotations

import functools

from domain.deathwick import cards
from domain.deathwick.state import Circle, Over, State, Unformed


def card_places(state: Circle) -> dict[int, list[str]]:
    """Every card of the pool with each place it lies (exactly one, if sound)."""
    places: dict[int, list[str]] = {card: [] for card in cards.pool(state.decks)}
    spots: list[tuple[str, tuple[int, ...]]] = [("dark", state.dark)]
    if state.declared is not None and state.declared.card is not None:
        spots.append(("table", (state.declared.card,)))
    for seat, player in enumerate(state.players):
        spots += [(f"candle/{seat}", player.candle), (f"hand/{seat}", player.hand),
                  (f"shadow/{seat}", tuple(g.card for g in player.shadow))]
    for place, found in spots:
        for card in found:
            places[card].append(place)
    return places


def knowable(state: Circle, seat: int | None) -> set[int]:
    """D11: the cards a seat (None: a spectator) may know now."""
    known = {*state.dark, *(g.card for p in state.players for g in p.shadow)}
    if state.declared is not None and state.declared.card is not None:
        known.add(state.declared.card)
    if seat is not None:
        known |= set(state.players[seat].hand)
        known |= {card for sight in state.sights if sight.looker == seat for card in sight.cards}
    return known


def secrets(state: State | Unformed, seat: int | None) -> frozenset[str]:
    """D11 as text: the codes and names of cards of which the reader may know no copy (hands,
    Candles and their order, other seats' Sight snapshots); nothing once the match is over."""
    if not isinstance(state, Circle) or isinstance(state, Over):
        return frozenset()
    seen = {cards.code(card) for card in knowable(state, seat)}
    return _unseen(frozenset(seen))


@functools.lru_cache(maxsize=1024)
def _unseen(seen: frozenset[str]) -> frozenset[str]:
    """Codes and names of every card code not seen (each deck holds every code, so a code with no
    knowable copy has every copy hidden)."""
    found: set[str] = set()
    for card in range(cards.DECK_SIZE):
        if cards.code(card) not in seen:
            found |= {cards.code(card), cards.words(card)}
    return frozenset(found)
