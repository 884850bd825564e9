"""Helpers for the Ember tests: a practice table, and givens that lay cards out directly.

A given moves cards (never copies them), so the 55 wizard cards stay conserved in every test.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.rng import Rng
from domain.ember import VERSIONS
from domain.ember.options import Options
from domain.ember.state import InPlay, Playing, with_wizard
from tests.domain.table import PracticeTable

PLAYERS = ("Ash", "Bryn", "Cato", "Dell", "Esme")
RNG = Rng(b"ember tests")
replace = msgspec.structs.replace


BOOKS = {book.rules_version: book for book in VERSIONS}


class Table(PracticeTable):
    """A practice table of Ember under one rules version (the latest unless named), played
    command by command."""

    def __init__(self, seats: int = 2, version: str | None = None, **options: Any) -> None:
        """Open the table (practice options allowed) and deal."""
        game = BOOKS[version] if version is not None else VERSIONS[-1]
        super().__init__(game, RNG, Options(**options), PLAYERS[:seats])

    @property
    def board(self) -> Playing:
        """The table in play (or as it ended)."""
        return self.state.board if hasattr(self.state, "board") else self.state

    def next_round(self) -> None:
        """Every seat ends its turn once, so the first player's second turn begins, with its draw
        step."""
        from domain.ember.commands import EndTurn

        for seat in range(len(self.board.seats)):
            self.send(seat, EndTurn())

    def _set(self, state: Playing) -> None:
        """Replace the state by a given one (a test's given, not a move)."""
        self.state = state

    def place(self, seat: int, card: str, turned: str = "ready", burned: bool = False) -> None:
        """Given: a card in front of a seat (taken from the Pool, a pile or the artifacts)."""
        s = self.board
        s = replace(s, pool=tuple(c for c in s.pool if c != card),
                    piles=tuple(c for c in s.piles if c != card),
                    artifacts=tuple(c for c in s.artifacts if c != card))
        held = InPlay(card=card, turned=turned, burned=burned)  # type: ignore[arg-type]
        self._set(with_wizard(s, seat, cards=(*s.seats[seat].cards, held)))

    def _take(self, s: Playing, cards: tuple[str, ...]) -> Playing:
        """The state with these wizard cards lifted from wherever they lie."""
        gone = set(cards)
        s = replace(s, deck=tuple(c for c in s.deck if c not in gone),
                    charred=tuple(c for c in s.charred if c not in gone))
        for seat, wizard in enumerate(s.seats):
            s = with_wizard(s, seat, hand=tuple(c for c in wizard.hand if c not in gone))
        return s

    def give(self, seat: int, *cards: str) -> None:
        """Given: the seat's hand is exactly these cards (its old hand goes under the deck)."""
        s = self.board
        old = tuple(c for c in s.seats[seat].hand if c not in cards)
        s = self._take(s, cards)
        s = with_wizard(s, seat, hand=tuple(cards))
        self._set(replace(s, deck=(*s.deck, *old)))

    def char(self, *cards: str) -> None:
        """Given: these cards on top of the Charred pile (the last named on top)."""
        s = self._take(self.board, cards)
        self._set(replace(s, charred=(*s.charred, *cards)))

    def stack(self, *cards: str) -> None:
        """Given: these cards on top of the draw deck, the first named on top."""
        s = self._take(self.board, cards)
        self._set(replace(s, deck=(*cards, *s.deck)))

    def held(self, card: str) -> InPlay:
        """A card in play, with its orientation."""
        return next(h for w in self.board.seats for h in w.cards if h.card == card)

    def hand(self, seat: int) -> tuple[str, ...]:
        """A seat's hand, as card ids."""
        return self.board.seats[seat].hand

    def wizard_cards(self) -> list[str]:
        """Every wizard card in the deck, the Charred pile and the hands."""
        s = self.board
        return [*s.deck, *s.charred, *(c for w in s.seats for c in w.hand)]
