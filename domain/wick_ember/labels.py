"""How a seat's legal commands read on a button: "Play Gale on Bryn", from the seat's own cards."""

from __future__ import annotations

from typing import Any

from domain.core.decider import Concede
from domain.wick_ember.cards import title
from domain.wick_ember.commands import PlayCard


def label(state: Any, seat: int, command: Any) -> str:
    """A short line naming one of the seat's commands; it names only the seat's own card."""
    if isinstance(command, Concede):
        return "Concede the match"
    return play_label(state.night.names, seat, command)


def play_label(names: tuple[str, ...], seat: int, play: PlayCard) -> str:
    """'Play Lamp Warden on Bryn, guessing Gale', 'Play Gale on yourself', 'Play Hearthflame'."""
    text = f"Play {title(play.card)}"
    if play.target is not None:
        text += " on yourself" if play.target == seat else f" on {names[play.target]}"
    if play.guess is not None:
        text += f", guessing {title(play.guess)}"
    return text
