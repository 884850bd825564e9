"""The cards of Wick & Ember: eight ranks, two decks, and one identity for every physical card.

Card identities are small integers.  The standard deck is ids 0..15 in rank order; the expanded
deck is the standard deck plus its six extra cards, ids 16..21 (three Lamp Wardens, a Gale, a
Veilkeeper and a Sootsweep), so an id names the same rank in either deck.
"""

from collections import Counter
from typing import Literal

from domain.core.decider import CardText

Deck = Literal["standard", "expanded"]

LAMP_WARDEN = "lamp_warden"
LENSMAKER = "lensmaker"
GALE = "gale"
VEILKEEPER = "veilkeeper"
SOOTSWEEP = "sootsweep"
FERRYWOMAN = "ferrywoman"
MOTH_DUCHESS = "moth_duchess"
HEARTHFLAME = "hearthflame"

NAMES = (LAMP_WARDEN, LENSMAKER, GALE, VEILKEEPER, SOOTSWEEP, FERRYWOMAN, MOTH_DUCHESS, HEARTHFLAME)
TITLES = {
    LAMP_WARDEN: "Lamp Warden",
    LENSMAKER: "Lensmaker",
    GALE: "Gale",
    VEILKEEPER: "Veilkeeper",
    SOOTSWEEP: "Sootsweep",
    FERRYWOMAN: "Ferrywoman",
    MOTH_DUCHESS: "Moth Duchess",
    HEARTHFLAME: "Hearthflame",
}
RANKS = {name: rank for rank, name in enumerate(NAMES, start=1)}

CHOOSES_A_SEAT = frozenset({LAMP_WARDEN, LENSMAKER, GALE, SOOTSWEEP})
FORCES_MOTH_DUCHESS = frozenset({SOOTSWEEP, FERRYWOMAN})
GUESSES = NAMES[1:]

_STANDARD = (
    (LAMP_WARDEN,) * 4
    + (LENSMAKER,) * 3
    + (GALE,) * 2
    + (VEILKEEPER,) * 2
    + (SOOTSWEEP,) * 2
    + (FERRYWOMAN, MOTH_DUCHESS, HEARTHFLAME)
)
_EXTRA = (LAMP_WARDEN,) * 3 + (GALE, VEILKEEPER, SOOTSWEEP)
_NAME_OF_ID = _STANDARD + _EXTRA
DECK_SIZES: dict[str, int] = {"standard": len(_STANDARD), "expanded": len(_NAME_OF_ID)}
_COMPOSITION: dict[str, dict[str, int]] = {  # each deck's copies of every rank, counted once
    deck: {name: _NAME_OF_ID[:size].count(name) for name in NAMES}
    for deck, size in DECK_SIZES.items()}


def card_ids(deck: Deck) -> tuple[int, ...]:
    """Every card identity in a deck, in id order."""
    return tuple(range(DECK_SIZES[deck]))


def name_of(card: int) -> str:
    """The rank name of a physical card, such as 'gale'."""
    return _NAME_OF_ID[card]


def rank_of(card: int) -> int:
    """The rank (1 to 8) of a physical card."""
    return RANKS[_NAME_OF_ID[card]]


def title(name: str) -> str:
    """How the rulebook writes a rank name: 'gale' -> 'Gale'."""
    return TITLES[name]


def shown_name(card: int) -> str:
    """A physical card's name in a view: every card leaving the rules goes through here."""
    return _NAME_OF_ID[card]


def shown_title(card: int) -> str:
    """A physical card's title in a log line: every card leaving the rules goes through here."""
    return TITLES[_NAME_OF_ID[card]]


def composition(deck: Deck) -> Counter[str]:
    """How many copies of each rank the deck holds."""
    return Counter(_COMPOSITION[deck])


def copies(deck: Deck) -> dict[str, int]:
    """How many copies of each rank (every rank named, in rank order) the deck holds: a new
    dict the caller may change."""
    return dict(_COMPOSITION[deck])


def ids_by_name(deck: Deck) -> dict[str, list[int]]:
    """The identities of each rank's copies in a deck, lowest id first."""
    ids: dict[str, list[int]] = {name: [] for name in NAMES}
    for card in card_ids(deck):
        ids[name_of(card)].append(card)
    return ids


def card_texts() -> tuple[CardText, ...]:
    """What each rank does when played (W6 to W12), for a player reading the table."""
    return tuple(CardText(code=name, name=f"{TITLES[name]} ({RANKS[name]})", text=_TEXTS[name])
                 for name in NAMES)


_TEXTS = {
    LAMP_WARDEN: "Choose another lit, unveiled seat and name a card from Lensmaker to Hearthflame: "
                 "if it is their hidden card, their flame is snuffed.",
    LENSMAKER: "Choose another lit, unveiled seat: you alone see their hidden card (a note "
               "that lasts while that card stays in their hand).",
    GALE: "Choose another lit, unveiled seat: your other card is compared with theirs; the lower "
          "flame is snuffed and its card shown. A tie does nothing.",
    VEILKEEPER: "You are veiled until your next turn: nobody can choose you and the Ferrywoman "
                "passes over you.",
    SOOTSWEEP: "Choose another lit, unveiled seat: they discard their hidden card face up and "
               "draw another. A discarded Hearthflame snuffs them.",
    FERRYWOMAN: "Every lit, unveiled seat, you included, passes its hidden card to the next "
                "such seat clockwise, all at once.",
    MOTH_DUCHESS: "No effect. Beside a Sootsweep or a Ferrywoman she must be played; otherwise "
                  "she is a bluff.",
    HEARTHFLAME: "Never played. Discarded by a Sootsweep, it snuffs its holder. At dawn the "
                 "highest hidden card wins the round.",
}
