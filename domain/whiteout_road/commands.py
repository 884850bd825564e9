"""What a seat may send: commit one card face down with its play (type "commit"), or concede."""

from typing import Literal

import msgspec

from domain.core.decider import Concede
from domain.whiteout_road.cards import Wagon

Play = Literal["feed", "load", "push", "break_trail", "fling", "watch"]
PLAYS: tuple[Play, ...] = ("feed", "load", "push", "break_trail", "fling", "watch")
BEAT_PLAYS: tuple[Play, ...] = ("feed", "load", "push", "break_trail")
GAMBIT_PLAYS: tuple[Play, ...] = ("fling", "watch")


class Commit(msgspec.Struct, tag="commit", frozen=True, kw_only=True):
    """Commit one card from your hand, naming its play; a wagon only when breaking trail."""

    card: str
    play: Play
    wagon: Wagon | None = None


Command = Commit | Concede

__all__ = ["BEAT_PLAYS", "GAMBIT_PLAYS", "PLAYS", "Command", "Commit", "Concede", "Play"]
