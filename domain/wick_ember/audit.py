"""Where every card is and what each reader may know: for tests and verifiers, never for players."""

from __future__ import annotations

from domain.wick_ember.cards import GUESSES, LAMP_WARDEN, TITLES, card_ids, name_of
from domain.wick_ember.state import State, Unlit


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


def knowable(state: State, seat: int | None) -> set[int]:
    """The card identities a seat (None: a spectator) may know now (W16)."""
    current = getattr(state, "round", None)
    if current is None:
        return set()
    known = {*current.ash, *current.face_up, *(c for c in current.dawn if c is not None)}
    known |= {card for lamp in state.seats for card in lamp.log}
    if current.set_aside_shown and current.set_aside is not None:
        known.add(current.set_aside)
    if seat is not None:
        known |= set(state.seats[seat].hand)
        known |= {note.card for note in current.notes if note.looker == seat}
    return known


def secrets(state: State | Unlit, seat: int | None) -> frozenset[str]:
    """W16 as text: the names and titles of hidden ranks of which the reader may know no copy.

    Names repeat, so a rank is a secret only while no copy of it is knowable; and while the seat
    to act holds a Lamp Warden, every rank it may name in a guess is spoken aloud, not a secret.
    """
    if isinstance(state, Unlit) or state.round is None:
        return frozenset()
    known = knowable(state, seat)
    hidden = {name_of(card) for card in card_ids(state.night.deck) if card not in known}
    hidden -= {name_of(card) for card in known}
    if _warden_to_act(state):
        hidden -= set(GUESSES)
    return frozenset(hidden | {TITLES[name] for name in hidden})


def _warden_to_act(state: State) -> bool:
    """Whether the seat to act holds a Lamp Warden (its guesses name ranks out loud)."""
    turn = getattr(state, "turn", None)
    return turn is not None and LAMP_WARDEN in {name_of(c) for c in state.seats[turn].hand}
