"""Where every card is: a helper for tests and verifiers, never shown to a player."""

from __future__ import annotations

from domain.wick_ember.cards import card_ids
from domain.wick_ember.state import State


def card_locations(state: State) -> dict[int, list[str]]:
    """Every card identity of the deck in use, with each place it lies (exactly one, if sound)."""
    places: dict[int, list[str]] = {card: [] for card in card_ids(state.night.deck)}
    current = state.round
    if current is None:
        return places
    for place, found in _places(state):
        for card in found:
            places[card].append(place)
    return places


def _places(state: State) -> list[tuple[str, tuple[int, ...]]]:
    """Each place on the table with the cards in it."""
    current = state.round
    assert current is not None
    set_aside = () if current.set_aside is None else (current.set_aside,)
    spots = [
        ("draw_pile", current.draw_pile),
        ("set_aside", set_aside),
        ("face_up", current.face_up),
        ("ash", current.ash),
    ]
    for seat, lamp in enumerate(state.seats):
        spots += [(f"hand/{seat}", lamp.hand), (f"log/{seat}", lamp.log)]
    return spots
