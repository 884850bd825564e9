"""The host's options (D3, D4, D8), and a practice table's scripted Candles and class offers."""

from __future__ import annotations

from collections import Counter
from typing import Literal

import msgspec

from domain.core.errors import RuleViolation
from domain.deathwick import cards
from domain.deathwick.classes import NAMES, OFFERED

MIN_SEATS, MAX_SEATS = 2, 20
CANDLE = 27
HAND = 3


class Options(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """What the host chooses when opening a match, plus a practice table's script.

    ``candles``: the top cards of each seat's Candle (the first three are its starting hand);
    ``dark``: the top of The Dark; ``offers``: each seat's three offered classes; ``first``: the
    first player. Cards not scripted are shuffled in by the seeded generator.
    """

    classes: Literal["on", "off"] = "on"
    ritual: Literal["standard", "dark"] = "standard"
    reaction_prompts: Literal["always", "only_when_able"] = "always"
    candles: list[list[str]] | None = None
    dark: list[str] | None = None
    offers: list[list[str]] | None = None
    first: int | None = None


def check_options(options: Options, seats: int, practice: bool) -> None:
    """Raise RuleViolation when the options do not fit a table of this many seats."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleViolation(f"Deathwick is played by {MIN_SEATS} to {MAX_SEATS} seats")
    scripted = (options.candles, options.dark, options.offers, options.first)
    if not practice and any(part is not None for part in scripted):
        raise RuleViolation("scripted Candles, Dark, class offers or first player are only "
                            "allowed at a practice table")
    if options.first is not None and not 0 <= options.first < seats:
        raise RuleViolation(f"the first player must be a seat from 0 to {seats - 1}")
    check_cards(options, seats)
    check_offers(options, seats)


def check_cards(options: Options, seats: int) -> None:
    """Scripted cards are real codes, no more copies than the decks hold, and fit their places."""
    candles, dark = options.candles or [], options.dark or []
    if len(candles) > seats:
        raise RuleViolation(f"{len(candles)} scripted Candles for {seats} seats")
    if any(len(candle) > CANDLE for candle in candles):
        raise RuleViolation(f"a Candle holds {CANDLE} cards")
    decks = cards.decks_for(seats)
    if len(dark) > decks * cards.DECK_SIZE - seats * CANDLE:
        raise RuleViolation("the scripted Dark is larger than the undealt cards")
    wanted = Counter(code for part in [*candles, dark] for code in part)
    for code, count in wanted.items():
        if code not in cards.codes():
            raise RuleViolation(f"{code!r} is not a card (write '7H', 'AS', '10D', 'KC', 'JOKER')")
        have = decks * cards.codes().count(code)
        if count > have:
            raise RuleViolation(f"the script uses {count} of {code}, the {decks} decks hold {have}")


def check_offers(options: Options, seats: int) -> None:
    """Scripted class offers: one per seat, three different classes each, classes on."""
    if options.offers is None:
        return
    if options.classes == "off":
        raise RuleViolation("class offers need classes on")
    if len(options.offers) != seats:
        raise RuleViolation(f"give one class offer per seat ({seats})")
    for offer in options.offers:
        if len(set(offer)) != OFFERED or not set(offer) <= set(NAMES):
            raise RuleViolation(f"an offer is {OFFERED} different classes of: {', '.join(NAMES)}")


def deal(options: Options, seats: int, shuffled: list[int]) -> tuple[tuple[tuple[int, ...], ...],
                                                                    tuple[int, ...]]:
    """D1: each seat's Candle (top first) and The Dark (top first): the script, then the shuffle."""
    rest = list(shuffled)
    picked = [[_take(rest, code) for code in candle] for candle in options.candles or []]
    top_of_dark = [_take(rest, code) for code in options.dark or []]
    candles = []
    for seat in range(seats):
        mine = picked[seat] if seat < len(picked) else []
        need = CANDLE - len(mine)
        candles.append((*mine, *rest[:need]))
        rest = rest[need:]
    return tuple(candles), (*top_of_dark, *rest)


def _take(rest: list[int], code: str) -> int:
    """Take the first card written ``code`` out of the shuffled pool."""
    card = next(card for card in rest if cards.code(card) == code)
    rest.remove(card)
    return card
