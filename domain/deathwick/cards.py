"""The cards of Deathwick: standard 54-card decks (52 and two jokers), one per two players (D1).

A card is a small integer: deck ``card // 54``, then within its deck 0..51 are the suited cards
(spades, hearts, clubs, diamonds; ace to king within a suit) and 52, 53 the jokers. Copies in
different decks are the same card to the rules; views write ``"7H"``, log lines "the 7 of hearts".
"""

from __future__ import annotations

DECK_SIZE = 54
SUITS = ("S", "H", "C", "D")
SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
TIER = {"S": 4, "H": 3, "C": 2, "D": 1}  # D2: spades > hearts > clubs > diamonds
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
JOKER = "JOKER"
ACE, SALT, TEN, KING = 1, 5, 10, 13


def decks_for(players: int) -> int:
    """D1: one deck for every two players, rounded up."""
    return (players + 1) // 2


def pool(decks: int) -> tuple[int, ...]:
    """Every card of the shuffled-together decks, in id order."""
    return tuple(range(decks * DECK_SIZE))


def rank(card: int) -> int:
    """1 (ace) to 13 (king); 0 for a joker."""
    k = card % DECK_SIZE
    return 0 if k >= 52 else k % 13 + 1


def suit(card: int) -> str | None:
    """'S', 'H', 'C' or 'D'; None for a joker."""
    k = card % DECK_SIZE
    return None if k >= 52 else SUITS[k // 13]


def is_number(card: int) -> bool:
    """An ace to a 10: a card that can be a ghost (D6)."""
    return 1 <= rank(card) <= TEN


def is_face(card: int) -> bool:
    """A jack, queen or king."""
    return rank(card) > TEN


def value(card: int) -> int:
    """D2: ace 1, 2 to 10 as printed, faces 10 (a joker has none: 0)."""
    return min(rank(card), TEN)


def meets(card: int, ghost: int) -> bool:
    """D2: the card meets or beats the ghost, value first and suit tier on a tie; a joker never."""
    if rank(card) == 0:
        return False
    if value(card) != value(ghost):
        return value(card) > value(ghost)
    return TIER[suit(card) or "D"] >= TIER[suit(ghost) or "D"]


def code(card: int) -> str:
    """How a view writes a card: '7H', 'AS', '10D', 'KC', 'JOKER'."""
    r = rank(card)
    return JOKER if r == 0 else RANK_CODES[r - 1] + (suit(card) or "")


def words(card: int) -> str:
    """How a log line names a card, without an article: '7 of hearts', 'joker'."""
    r = rank(card)
    if r == 0:
        return "joker"
    return f"{RANK_WORDS[r - 1]} of {SUIT_NAMES[suit(card) or 'S']}"


def the(card: int) -> str:
    """'the 7 of hearts', 'a joker'."""
    return "a joker" if rank(card) == 0 else f"the {words(card)}"


def codes() -> tuple[str, ...]:
    """Every card code, in one deck's id order (worked out once: legal actions and labels look
    cards up in it for every seat that may act)."""
    return _CODES


_CODES = tuple(code(card) for card in range(DECK_SIZE))


def copies(cards: tuple[int, ...], wanted: str) -> list[int]:
    """The cards among ``cards`` written ``wanted``."""
    return [card for card in cards if code(card) == wanted]


def distinct(cards: tuple[int, ...]) -> list[str]:
    """The codes of some cards, each once, in the order first met."""
    return list(dict.fromkeys(code(card) for card in cards))
