"""How a seat's commands read on a button ("Haunt Bryn with the 7 of hearts"), from its cards."""

from __future__ import annotations

from typing import Any

from domain.core.decider import Concede
from domain.core.reactions import Allow
from domain.deathwick import cards
from domain.deathwick.classes import title
from domain.deathwick.commands import (
    Banish,
    CancelHaunt,
    CastCard,
    ChooseClass,
    DiscardCard,
    DiscardCards,
    Haunt,
    Ignite,
    Panic,
    PassRitual,
    ThrowSalt,
)
from domain.deathwick.grimoire import spell_of

VERBS = {"haunt": ("Haunt", "Haunts"), "cast": ("Cast", "Casts"), "banish": ("Banish", "Banishes"),
         "panic": ("Panic", "Panics"), "pass": ("Pass", "Passes"), "ignite": ("Ignite", "Ignites")}


def label(state: Any, seat: int, command: Any) -> str:
    """A short line naming one of the seat's commands."""
    names = state.names
    match command:
        case Concede():
            return "Concede the match"
        case ChooseClass():
            return f"Accept the curse of {title(command.name)}"
        case ThrowSalt():
            return f"Answer with Salt ({_the(command.card)})"
        case CancelHaunt():
            return f"Cancel the Haunt with {_the(command.card)}"
        case Allow():
            return "Allow it"
        case DiscardCard():
            return f"Discard {_the(command.card)}"
        case DiscardCards():
            return "Discard " + ", ".join(_the(card) for card in command.cards)
    return action_text(names, seat, command, you=True)


def action_text(names: tuple[str, ...], seat: int, action: Any, you: bool = False) -> str:
    """An action in the rulebook's words: 'Mara Haunts Bryn with the 7 of hearts'."""
    who = "" if you else f"{names[seat]} "

    def verb(word: str) -> str:
        """'Haunt' on a button, 'Haunts' in the log."""
        return VERBS[word][0 if you else 1]

    match action:
        case Haunt():
            return f"{who}{verb('haunt')} {names[action.target]} with {_the(action.card)}"
        case CastCard():
            return who + verb("cast") + " " + _cast(names, seat, action)
        case Banish():
            return (f"{who}{verb('banish')} the {action.ghost} ghost with "
                    f"{_the(action.card)}")
        case Panic():
            return f"{who}{verb('panic')} against the {action.ghost} ghost"
        case PassRitual():
            return f"{who}{verb('pass')}"
        case Ignite():
            return (f"{who}{verb('ignite')} {names[action.target]}, discarding "
                    f"{_the(action.card)}")
    return type(action).__name__


def _cast(names: tuple[str, ...], seat: int, action: CastCard) -> str:
    """'the 4 of clubs (Drain) on Bryn'."""
    spell = spell_of(cards.codes().index(action.card))
    text = f"{_the(action.card)} ({spell.name})"
    if action.ghost is not None:
        text += f" on the {action.ghost} ghost"
        if action.target is not None:
            whose = "of" if spell.target == "any_ghost" else "into"  # Recall's, or Possess's
            text += f" {whose} {names[action.target]}'s Shadow"
    elif action.target is not None:
        text += f" on {names[action.target]}"
    if action.choice is not None:
        text += ", to your hand" if action.choice == "hand" else ", onto your Candle"
    return text


def _the(code: str) -> str:
    """'the 7 of hearts' for a card code."""
    return cards.the(cards.codes().index(code))
