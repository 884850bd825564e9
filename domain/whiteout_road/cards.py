"""The cards of Whiteout Road (R1): the 48 non-Aces in four suits, and the joker as the whiteout.

A card is named by its rank then its suit letter: "7C" is the 7 of clubs, "10H" the 10 of hearts,
"JD" the Jack of diamonds, "KS" the King of spades.  The joker is "WHITEOUT".  Every card is
unique, so its name is its identity, in the API and in the stored events alike.  The four Aces
are only markers and never in play.
"""

from typing import Literal

from domain.core.decider import CardText

Wagon = Literal["food", "medicine", "firewood"]

SUITS = ("H", "D", "C", "S")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
WHITEOUT = "WHITEOUT"
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
EVERY_CARD = (*CARDS, WHITEOUT)

WAGONS: tuple[Wagon, ...] = ("food", "medicine", "firewood")
WAGON_OF_SUIT: dict[str, Wagon] = {"H": "food", "D": "medicine", "C": "firewood"}
SUIT_OF_WAGON: dict[Wagon, str] = {wagon: suit for suit, wagon in WAGON_OF_SUIT.items()}
SUIT_NAMES = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}
RANK_NAMES = {"J": "Jack", "Q": "Queen", "K": "King"}
_ORDER = {card: index for index, card in enumerate(EVERY_CARD)}


def suit(card: str) -> str:
    """The suit letter of a card: '7C' -> 'C'."""
    return card[-1]


def rank(card: str) -> str:
    """The rank of a card: '10H' -> '10'."""
    return card[:-1]


def pips(card: str) -> int:
    """Pips as printed; J, Q and K count 10."""
    return 10 if rank(card) in RANK_NAMES else int(rank(card))


def height(card: str) -> int:
    """How high a card ranks, for 'the highest card': 2 is 0, the King is 11."""
    return RANKS.index(rank(card))


def wagon_of(card: str) -> Wagon | None:
    """The wagon of a heart, diamond or club; None for a spade or the whiteout."""
    return None if card == WHITEOUT else WAGON_OF_SUIT.get(suit(card))


def wagon_for(card: str) -> Wagon:
    """The wagon of a heart, diamond or club (the caller knows it is one)."""
    return WAGON_OF_SUIT[suit(card)]


def is_spade(card: str) -> bool:
    """A spade: the snow's suit."""
    return card != WHITEOUT and suit(card) == "S"


def is_king(card: str) -> bool:
    """A King, which roars when fed."""
    return card != WHITEOUT and rank(card) == "K"


def title(card: str) -> str:
    """How a player says it: 'the 7 of clubs', 'the King of spades', 'the whiteout'."""
    if card == WHITEOUT:
        return "the whiteout"
    return f"the {RANK_NAMES.get(rank(card), rank(card))} of {SUIT_NAMES[suit(card)]}"


def sort_key(card: str) -> int:
    """The canonical order: hearts, diamonds, clubs, spades, each 2 to King; the whiteout last."""
    return _ORDER[card]


def in_order(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Cards in the canonical order."""
    return tuple(sorted(cards, key=sort_key))


def card_texts() -> tuple[CardText, ...]:
    """What a card may do by its suit (R4), and the King and the whiteout, for a player reading
    the table: a client shows a card's suit entry and, for a King, the King's too."""
    return (
        CardText(code="H", name="Hearts: food", text=_WAGON_TEXT.format(wagon="food")),
        CardText(code="D", name="Diamonds: medicine", text=_WAGON_TEXT.format(wagon="medicine")),
        CardText(code="C", name="Clubs: firewood", text=_WAGON_TEXT.format(wagon="firewood")),
        CardText(code="S", name="Spades: the snow", text="Break trail: shovel a laden wagon on "
                 "space 3 or 4 one space on (the spade is spent), or feed it to the fire. As a "
                 "Fate card, a cold snap: snow +3."),
        CardText(code="K", name="King", text="Fed to the fire, a King roars the snow back 1 after "
                 "the drift."),
        CardText(code=WHITEOUT, name="The whiteout", text="The joker, in the Fate deck: turned up, "
                 "the furthest laden wagon that has moved is through; with none, the Gambit: each "
                 "player flings one more card onto a wagon."),
    )


_WAGON_TEXT = (
    "Load it onto the {wagon} wagon (full pips on spaces 0 to 2; on 3 to 5 half, and only onto a "
    "laden wagon), push the wagon one space (it pays 2 if the wagon gets through), or feed it to "
    "the fire (only feeding keeps the snow from drifting for you). As a Fate card it rolls the "
    "{wagon} wagon one space."
)
