"""What a seat may send (D3, D5, D6, D8): cards by their codes ('7H'), ghosts by their cards."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.core.decider import Concede
from domain.core.reactions import Allow


class ChooseClass(msgspec.Struct, tag="choose_class", frozen=True, kw_only=True):
    """D3: accept one of the three classes offered to you."""

    name: str


class Haunt(msgspec.Struct, tag="haunt", frozen=True, kw_only=True):
    """D6: play a number card (the Warlock: any but a joker) into a neighbour's Shadow."""

    card: str
    target: int


class CastCard(msgspec.Struct, tag="cast", frozen=True, kw_only=True):
    """D6: play a card for its Grimoire effect; ``target`` a seat, ``ghost`` a ghost's card,
    ``choice`` the Medium's ('hand' or 'candle')."""

    card: str
    target: int | None = None
    ghost: str | None = None
    choice: Literal["hand", "candle"] | None = None


class Banish(msgspec.Struct, tag="banish", frozen=True, kw_only=True):
    """D6: play a card onto a ghost in your own Shadow that it meets or beats."""

    card: str
    ghost: str


class Panic(msgspec.Struct, tag="panic", frozen=True, kw_only=True):
    """D6: name a ghost in your Shadow and flip the top card of your Candle against it."""

    ghost: str


class PassRitual(msgspec.Struct, tag="pass", frozen=True, kw_only=True):
    """D6: take no action this Ritual."""


class Ignite(msgspec.Struct, tag="ignite", frozen=True, kw_only=True):
    """D3, the Pyromaniac: discard a card to make a neighbour Burn one (once per turn)."""

    card: str
    target: int


class DiscardCard(msgspec.Struct, tag="discard", frozen=True, kw_only=True):
    """D5, the Burden: discard one card while your hand is over its limit."""

    card: str


class DiscardCards(msgspec.Struct, tag="discard_cards", frozen=True, kw_only=True):
    """D5, the Burden in one command: discard exactly the cards over your hand limit at once (the
    same as discarding them one at a time, in this order)."""

    cards: tuple[str, ...]


class ThrowSalt(msgspec.Struct, tag="salt", frozen=True, kw_only=True):
    """D8: answer a window with a Salt (a 5) from your hand."""

    card: str


class CancelHaunt(msgspec.Struct, tag="cancel_haunt", frozen=True, kw_only=True):
    """D3, the Unseen (any card) or the Hex (a card of the Haunt's rank): cancel a Haunt."""

    card: str


Action = Haunt | CastCard | Banish | Panic | PassRitual | Ignite
Answer = ThrowSalt | CancelHaunt | Allow
Command = (ChooseClass | Haunt | CastCard | Banish | Panic | PassRitual | Ignite | DiscardCard
           | DiscardCards | ThrowSalt | CancelHaunt | Allow | Concede)

__all__ = ["Action", "Allow", "Answer", "Banish", "CancelHaunt", "CastCard", "ChooseClass",
           "Command", "Concede", "DiscardCard", "DiscardCards", "Haunt", "Ignite", "Panic",
           "PassRitual", "ThrowSalt"]
