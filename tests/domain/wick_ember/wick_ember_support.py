"""Helpers for the Wick & Ember tests: scripted practice deals and a table to play them on."""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.core.rng import Rng
from domain.wick_ember import GAME
from domain.wick_ember.cards import NAMES, composition, name_of
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.events import Event
from domain.wick_ember.options import Options
from domain.wick_ember.state import State
from tests.domain.table import PracticeTable

PLAYERS = ("Ash", "Bryn", "Cato", "Dell", "Esme", "Fenn")
RNG = Rng(b"wick and ember tests")


def stacked(
    set_aside: str,
    hands: tuple[str, ...],
    draws: tuple[str, ...] = (),
    face_up: tuple[str, ...] = (),
    deck: str = "standard",
) -> list[str]:
    """A round's full deck from the top: the named cards, then the rest of the deck in rank order.

    ``hands`` are dealt from the opener clockwise; ``draws`` are the top of the draw pile.
    """
    top = [set_aside, *face_up, *hands, *draws]
    rest = composition(deck)  # type: ignore[arg-type]
    rest.subtract(Counter(top))
    assert all(count >= 0 for count in rest.values()), f"more copies than the deck has: {rest}"
    return top + [name for name in NAMES for _ in range(rest[name])]


def card_names(cards: tuple[int | None, ...]) -> list[str | None]:
    """Card identities from events, as names (None stays None)."""
    return [None if card is None else name_of(card) for card in cards]


def fold(events: list[Event], state: State | None = None) -> State:
    """The state after some events."""
    for event in events:
        state = GAME.evolve(state, event)
    assert state is not None
    return state


class Table(PracticeTable):
    """A practice table of Wick & Ember, played command by command."""

    def __init__(
        self, seats: int = 2, rounds: tuple[list[str], ...] = (), opener: int = 0, **options: Any
    ):
        """Open the table with a scripted deal and run setup."""
        super().__init__(GAME, RNG, Options(deal=[list(r) for r in rounds], opener=opener,
                                            **options), PLAYERS[:seats])

    def play(
        self, seat: int, card: str, target: int | None = None, guess: str | None = None
    ) -> list[Event]:
        """A seat plays a card."""
        return self.send(seat, PlayCard(card=card, target=target, guess=guess))

    def hand(self, seat: int) -> list[str]:
        """A seat's hidden cards by name, as its own view shows them."""
        return list(self.view(seat).hand)

    def refuses_play(
        self, seat: int, card: str, target: int | None = None, guess: str | None = None
    ) -> str:
        """The message of a refused play."""
        return self.refuses(seat, PlayCard(card=card, target=target, guess=guess))
