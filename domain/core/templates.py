"""Legal actions that leave a set of cards to the seat ("choose 2 of these to discard"), so a
client is offered one action where the complete commands would be every combination.

A game offers them through ``Rulebook.offer``; ``legal_actions`` still lists every complete
command (bots, time-outs and the conformance suite read it) and ``decide`` still refuses any
choice the rules do not allow, so a template only changes what the API lists.
"""

from __future__ import annotations

from typing import Any

import msgspec


class ChooseCards(msgspec.Struct, frozen=True, kw_only=True):
    """Fill the command's ``field`` with exactly ``count`` of the cards ``among`` (a card listed
    twice may be chosen twice); ``rule`` says in words what else the set must be, if anything."""

    field: str
    count: int
    among: tuple[str, ...]
    rule: str | None = None


class Template(msgspec.Struct, frozen=True, kw_only=True):
    """One complete legal command (the first of its set), the choice its ``choose.field`` stands
    for (any other set that fits is as legal), and a line naming it for a person ("End your
    turn, discarding 2 cards of your choice"). A client that knows nothing of templates sends
    ``command`` as it is and plays a legal move."""

    command: Any
    choose: ChooseCards
    label: str


def completed(template: Template, chosen: tuple[str, ...]) -> Any:
    """The template's command with the chosen cards in its field (sorted, as legal actions are)."""
    filled = {template.choose.field: tuple(sorted(chosen))}
    return msgspec.structs.replace(template.command, **filled)


def fits(template: Template, command: Any) -> bool:
    """Whether a complete command is one the template offers: the same command but for the
    chosen field, which holds ``count`` cards drawn from ``among``."""
    field = template.choose.field
    chosen = tuple(getattr(command, field, ()))
    if type(command) is not type(template.command) or len(chosen) != template.choose.count:
        return False
    left = list(template.choose.among)
    for card in chosen:
        if card not in left:
            return False
        left.remove(card)
    return completed(template, chosen) == msgspec.structs.replace(
        command, **{field: tuple(sorted(chosen))})
