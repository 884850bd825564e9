"""The Cursed (D3): the eleven classes, one table read by the rules, the views and the log."""

from __future__ import annotations

import msgspec

from domain.core.decider import CardText


class Curse(msgspec.Struct, frozen=True, kw_only=True):
    """One class: its name as the API writes it, its title and its power in a sentence."""

    name: str
    title: str
    power: str


CLASSES = (
    Curse(name="watcher", title="The Watcher", power="Sight shows both neighbours' hands."),
    Curse(name="sadist", title="The Sadist", power="Scare makes the neighbour discard 2 cards."),
    Curse(name="occultist", title="The Occultist",
          power="Possess may send a ghost to any player's Shadow."),
    Curse(name="sealbinder", title="The Sealbinder",
          power="Its Haunted ghosts cannot be Possessed, Recalled or carried by a Mirror."),
    Curse(name="clown", title="The Clown",
          power="Its Haunted ghosts leave only by a face-card Banish, a Purge or a Cleanse."),
    Curse(name="gatekeeper", title="The Gatekeeper",
          power="Cannot be chosen by Mirror or Possess."),
    Curse(name="unseen", title="The Unseen",
          power="Once per attacker's turn, may discard a card to cancel a Haunt on it."),
    Curse(name="hex", title="The Hex",
          power="Once per attacker's turn, may reveal a card of the same rank to cancel a Haunt."),
    Curse(name="hoarder", title="The Hoarder", power="Hand limit 8."),
    Curse(name="pyromaniac", title="The Pyromaniac",
          power="Once per turn, besides its action, may discard a card to make a neighbour Burn."),
    Curse(name="warlock", title="The Warlock",
          power="May Haunt with a face card, a ghost of strength 10."),
)
BY_NAME = {curse.name: curse for curse in CLASSES}
NAMES = tuple(BY_NAME)
OFFERED = 3
HAND_LIMIT, HOARDER_LIMIT = 5, 8

WATCHER, SADIST, OCCULTIST, SEALBINDER, CLOWN, GATEKEEPER = NAMES[:6]
UNSEEN, HEX, HOARDER, PYROMANIAC, WARLOCK = NAMES[6:]


def title(name: str | None) -> str:
    """'The Watcher', or 'no class'."""
    return BY_NAME[name].title if name else "no class"


def hand_limit(name: str | None) -> int:
    """D5: 5 cards, 8 for the Hoarder."""
    return HOARDER_LIMIT if name == HOARDER else HAND_LIMIT


def class_texts() -> tuple[CardText, ...]:
    """Each class and its power, for a player choosing one or reading the circle (its code is
    its name as the API writes it: 'watcher')."""
    return tuple(CardText(code=curse.name, name=curse.title, text=curse.power) for curse in CLASSES)
