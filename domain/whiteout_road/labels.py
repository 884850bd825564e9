"""How a seat's legal commands read on a button: "Load the 9 of hearts onto the food wagon"."""

from __future__ import annotations

from typing import Any

from domain.core.decider import Concede
from domain.whiteout_road.cards import title, wagon_of
from domain.whiteout_road.commands import Commit

PLAYS = {
    "feed": "Feed the fire with {card}",
    "load": "Load {card} onto the {wagon} wagon",
    "push": "Push the {wagon} wagon with {card}",
    "break_trail": "Break trail for the {wagon} wagon with {card}",
    "fling": "Fling {card} onto the {wagon} wagon",
    "watch": "Keep watch with {card}",
}


def label(state: Any, seat: int, command: Any) -> str:
    """A short line naming one of the seat's commands; it names only the seat's own card."""
    if isinstance(command, Concede):
        return "Concede the match"
    return commit_label(command)


def commit_label(commit: Commit) -> str:
    """The play, the seat's own card and the wagon it goes to (named, or the card's suit's)."""
    wagon = commit.wagon or wagon_of(commit.card)
    return PLAYS[commit.play].format(card=title(commit.card), wagon=wagon)
