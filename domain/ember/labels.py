"""How a seat's legal commands read on a button, from what that seat may see, in players' words:
wizard cards as a line says them ('Earth 11', 'an Archmage'), cards in play by their names."""

from __future__ import annotations

from typing import Any

from domain.core.decider import Concede
from domain.ember.board import card_of
from domain.ember.cards import DRAGONS, listing, spoken, title
from domain.ember.commands import Conjure, Draw, EndTurn, Pass, PlayArchmage, Refresh, UseAbility
from domain.ember.state import Finished


def label(state: Any, seat: int, command: Any) -> str:
    """A short line naming one of the seat's commands: 'Conjure Gust Finch with Fire 2, Air 2
    and Fire 9'."""
    board = state.board if isinstance(state, Finished) else state
    names = board.names
    match command:
        case Draw(recycle=None):
            return "Draw a card"
        case Draw():
            return f"Recycle {spoken(command.recycle or '')} and draw"
        case Refresh():
            return "Refresh your hand (no conjuring this turn)"
        case Conjure():
            onto = "" if command.onto is None else f" onto {names[command.onto]}"
            return f"Conjure {title(command.card)}{onto} with {_cards(command.paid)}"
        case EndTurn():
            text = "End your turn"
            if command.discard:
                text += f", discarding {_cards(command.discard)}"
            return text + (" and make the Call" if command.call else "")
        case UseAbility():
            return _ability(board, command)
        case PlayArchmage():
            return f"Play an Archmage: {command.effect} {_target(board, command.target)}"
        case Pass():
            return "Pass"
        case Concede():
            return "Concede the match"
    return type(command).__name__


def _cards(cards: tuple[str, ...]) -> str:
    """Wizard cards in players' words: 'Fire 2, Air 2 and an Archmage'."""
    return listing([spoken(card) for card in cards])


def _ability(board: Any, command: UseAbility) -> str:
    """'Gust Finch: Buffet on Bryn's Moss Vole'."""
    info = card_of(board, command.card)
    if command.power == "legendary":
        name = DRAGONS[info.dragon or ""].legendary.name
    else:
        ability = info.ability(command.power)
        name = ability.name if ability else command.power
    text = f"{info.name}: {'Drain, ' if command.power == 'drain' else ''}{name}"
    if command.target is not None:
        text += f" on {_target(board, command.target)}"
    if command.seat is not None:
        text += f" on {board.names[command.seat]}"
    return text


def _target(board: Any, card: str) -> str:
    """A card in play as its owner's ('Bryn's Moss Vole'); it is a card the seat may see."""
    for owner, wizard in enumerate(board.seats):
        if any(h.card == card for h in wizard.cards):
            return f"{board.names[owner]}'s {title(card)}"
    return title(card)
