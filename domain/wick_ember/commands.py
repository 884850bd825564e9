"""What a seat may send: play a card (the API's type "play"), or concede."""

import msgspec

from domain.core.decider import Concede


class PlayCard(msgspec.Struct, tag="play", frozen=True, kw_only=True):
    """Play one of your two cards by name, naming a seat and (Lamp Warden only) a guess."""

    card: str
    target: int | None = None
    guess: str | None = None


Command = PlayCard | Concede

__all__ = ["Command", "Concede", "PlayCard"]
