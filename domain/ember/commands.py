"""What a seat may send (E7, E8, E9): the turn's steps, abilities at any time, or concede."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.core.decider import Concede


class Draw(msgspec.Struct, tag="draw", frozen=True, kw_only=True):
    """E7: draw a card; at hand size, recycle (discard) one card to draw."""

    recycle: str | None = None


class Refresh(msgspec.Struct, tag="refresh", frozen=True, kw_only=True):
    """E7: discard the whole hand and draw as many; no conjure this turn."""


class Conjure(msgspec.Struct, tag="conjure", frozen=True, kw_only=True):
    """E3, E6, E7: pay a card's cost with wizard cards and claim it (a Spectral onto ``onto``)."""

    card: str
    paid: tuple[str, ...]
    onto: int | None = None


class EndTurn(msgspec.Struct, tag="end_turn", frozen=True, kw_only=True):
    """E7, E9: discard down to hand size (these cards), and perhaps make the Call."""

    discard: tuple[str, ...] = ()
    call: bool = False


class UseAbility(msgspec.Struct, tag="use_ability", frozen=True, kw_only=True):
    """E6, E8: exhaust a Ready card for its ability (or Drain an artifact, or exhaust a dragon
    part for its dragon's Legendary ability), choosing a card or a seat if the effect asks."""

    card: str
    power: Literal["exhaust", "drain", "legendary"] = "exhaust"
    target: str | None = None
    seat: int | None = None


class PlayArchmage(msgspec.Struct, tag="play_archmage", frozen=True, kw_only=True):
    """E8: play an Archmage from hand to Advance one of your creatures to Ready, or Burn or
    Regenerate any one creature in play."""

    effect: Literal["advance", "burn", "regenerate"]
    target: str


class Pass(msgspec.Struct, tag="pass", frozen=True, kw_only=True):
    """E9: in the last round of abilities, use none this time."""


Command = Draw | Refresh | Conjure | EndTurn | UseAbility | PlayArchmage | Pass | Concede

__all__ = ["Command", "Concede", "Conjure", "Draw", "EndTurn", "Pass", "PlayArchmage",
           "Refresh", "UseAbility"]
