"""Helpers for the Whiteout Road tests: scripted practice nights and a table to play them on.

The tests play rules version 1 unless they name another (the versions differ only where
docs/rules/whiteout-road.md says so, and test_whiteout_road_versions.py pins each difference).
"""

from __future__ import annotations

from typing import Any

from domain.core.decider import Rulebook
from domain.core.rng import Rng
from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road.cards import CARDS, WHITEOUT
from domain.whiteout_road.commands import Commit
from domain.whiteout_road.events import Event
from domain.whiteout_road.options import HAND_SIZES, Options
from tests.domain.table import PracticeTable

PLAYERS = ("Mara", "Bryn", "Cato", "Dell", "Esme", "Fenn")
RNG = Rng(b"whiteout road tests")

# Hands are padded from here, low clubs and spades first, Kings last; Fate gets what is left.
_LOW = [f"{rank}{suit}" for rank in ("2", "3", "4", "5", "6") for suit in "CS"]
_REST = [card for card in CARDS if card not in _LOW]
PADDING = _LOW + [c for c in _REST if c[0] != "K"] + [c for c in _REST if c[0] == "K"]


def stacked(
    hands: list[list[str]], fate: tuple[str, ...] | list[str] = (), whiteout: int | None = None
) -> list[str]:
    """A night's 49 cards from the top: each hand (padded to its size), then Fate.

    ``fate`` are Fate's first cards, from the top; the rest follows.  The whiteout goes at place
    ``whiteout`` of the Fate deck (0 = the first flip), or last.
    """
    size = HAND_SIZES[len(hands)]
    named = {card for hand in hands for card in hand} | set(fate)
    spare = [card for card in PADDING if card not in named]
    full = []
    for hand in hands:
        full.append([*hand, *spare[: size - len(hand)]])
        spare = spare[size - len(hand) :]
    deck = [*fate, *spare]
    deck.insert(len(deck) if whiteout is None else whiteout, WHITEOUT)
    order = [card for hand in full for card in hand] + deck
    assert sorted(order) == sorted([*CARDS, WHITEOUT]), "a card is named twice"
    return order


def play_of(text: str, hand: tuple[str, ...] = ()) -> Commit:
    """'7C feed', '9H load', '4S break_trail food' as a commitment; '-' feeds a padding card."""
    if text == "-":
        return Commit(card=min(hand, key=_padding_place), play="feed")
    card, play, *wagon = text.split()
    return Commit(card=card, play=play, wagon=wagon[0] if wagon else None)  # type: ignore[arg-type]


def _padding_place(card: str) -> int:
    """Where a card comes in the padding (the cards '-' feeds first)."""
    return PADDING.index(card) if card in PADDING else len(PADDING)


class Table(PracticeTable):
    """A practice table of Whiteout Road, played command by command."""

    def __init__(
        self,
        nights: tuple[list[str], ...] = (),
        players: int = 2,
        game: Rulebook = GAME,
        **options: Any,
    ):
        """Open the table with scripted nights (under rules version 1 by default) and run setup."""
        super().__init__(game, RNG, Options(deal=[list(n) for n in nights] or None, **options),
                         PLAYERS[:players])

    def commit(self, seat: int, text: str) -> list[Event]:
        """A seat commits a card: '7C feed', '4S break_trail food', or '-' (feed a padding card)."""
        return self.send(seat, play_of(text, self.state.seats[seat].hand))

    def beat(self, *plays: str) -> list[Event]:
        """Every seat still owing commits, in seat order; the events of them all."""
        owing = self.game.to_act(self.state)
        assert len(owing) == len(plays), f"seats {owing} owe a card"
        return [event for seat, text in zip(owing, plays) for event in self.commit(seat, text)]

    def wagon(self, name: str) -> Any:
        """A wagon as everyone sees it."""
        return next(w for w in self.view(None).wagons if w.wagon == name)

    def refuses_play(self, seat: int, text: str) -> str:
        """The message of a refused commitment."""
        return self.refuses(seat, play_of(text))
