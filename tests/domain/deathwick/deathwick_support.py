"""Helpers for the Deathwick tests: a practice table with scripted Candles, and positions given
directly (a Shadow, a hand, a class) when a test is about what follows from them."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.decider import Rulebook
from domain.core.reactions import Allow
from domain.core.rng import Rng
from domain.deathwick import GAME, cards
from domain.deathwick.commands import PassRitual
from domain.deathwick.options import Options
from domain.deathwick.state import Ghost, with_player
from tests.domain.table import PracticeTable

PLAYERS = ("Mara", "Bryn", "Cato", "Dell", "Esme", "Fenn", "Gale", "Hale", "Iris", "Jude", "Kit",
           "Lark", "Nell", "Oren", "Pip", "Quin", "Rook", "Sage", "Tam", "Ula")
RNG = Rng(b"deathwick tests")


def card(code: str) -> int:
    """A card of this code (the first deck's copy)."""
    return cards.codes().index(code)


def codes(found: tuple[int, ...]) -> list[str]:
    """Card identities as codes."""
    return [cards.code(c) for c in found]


class Table(PracticeTable):
    """A practice table of Deathwick (classes off unless offers are given), seat 0 first, under
    the latest rules version unless another is given."""

    def __init__(self, seats: int = 3, candles: tuple[list[str], ...] = (), first: int = 0,
                 offers: list[list[str]] | None = None, game: Rulebook = GAME,
                 **options: Any) -> None:
        """Open the table with its script and run setup."""
        options.setdefault("classes", "on" if offers else "off")
        super().__init__(game, RNG, Options(candles=[list(c) for c in candles] or None,
                                            first=first, offers=offers, **options),
                         PLAYERS[:seats])

    def player(self, seat: int) -> Any:
        """One seat's record."""
        return self.state.players[seat]

    def hand(self, seat: int) -> list[str]:
        """A seat's hand as codes."""
        return codes(self.player(seat).hand)

    def shadow(self, seat: int) -> list[str]:
        """A seat's Shadow as codes."""
        return [cards.code(g.card) for g in self.player(seat).shadow]

    def give(self, seat: int, hand: list[str] | None = None, shadow: list[str] | None = None,
             curse: str | None = None, by: int | None = None, bound: str | None = None,
             candle: list[str] | None = None) -> None:
        """Given: a seat's hand, Shadow (ghosts put there by ``by``), class or Candle, set
        directly."""
        changes: dict[str, Any] = {}
        if hand is not None:
            changes["hand"] = tuple(card(c) for c in hand)
        if shadow is not None:
            changes["shadow"] = tuple(Ghost(card=card(c), by=by, bound=bound) for c in shadow)
        if curse is not None:
            changes["curse"] = curse
        if candle is not None:
            changes["candle"] = tuple(card(c) for c in candle)
        self.state = with_player(self.state, seat, **changes)

    def set(self, **changes: Any) -> None:
        """Given: table-wide fields set directly (The Dark, the ritual, the prompts)."""
        self.state = msgspec.structs.replace(self.state, **changes)

    def finish(self, seat: int) -> None:
        """The seat passes its Ritual, answering allow for it if a window opens."""
        self.send(seat, PassRitual())

    def allow(self, seat: int) -> list[Any]:
        """The seat allows what its window waits on."""
        return self.send(seat, Allow())

    def to_act(self) -> tuple[int, ...]:
        """The seats the rules wait on."""
        return self.game.to_act(self.state)
