"""The host's options: deck, match length or ember target, and a practice table's scripted deal."""

from collections import Counter
from typing import Literal

import msgspec

from domain.core.errors import RuleViolation
from domain.wick_ember.cards import NAMES, Deck, composition, ids_by_name

MIN_SEATS, MAX_SEATS = 2, 6
MAX_EMBER_TARGET = 10

# W2: ember targets by match length, for 2, 3, 4, 5 and 6 seats.
EMBER_TARGETS = {
    "short": (4, 3, 3, 2, 2),
    "standard": (6, 5, 4, 3, 3),
    "long": (8, 7, 6, 5, 4),
}


class Options(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """What the host chooses when opening a match (W1, W2), plus a practice table's script."""

    deck: Literal["standard", "expanded"] | None = None
    match_length: Literal["short", "standard", "long"] = "standard"
    ember_target: int | None = None
    deal: list[list[str]] | None = None
    opener: int | None = None


def decks_allowed(seats: int) -> tuple[Deck, ...]:
    """W1: two seats play the standard deck, five or six the expanded, three or four either."""
    if seats == 2:
        return ("standard",)
    if seats >= 5:
        return ("expanded",)
    return ("standard", "expanded")


def deck_for(options: Options, seats: int) -> Deck:
    """The deck in use: the host's choice, else the first the seat count allows."""
    return options.deck or decks_allowed(seats)[0]


def ember_target_for(options: Options, seats: int) -> int:
    """W2: an explicit ember target wins over the match length's table."""
    if options.ember_target is not None:
        return options.ember_target
    return EMBER_TARGETS[options.match_length][seats - MIN_SEATS]


def check_options(options: Options, seats: int, practice: bool) -> None:
    """Raise RuleViolation when the options do not fit a table of this many seats."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleViolation(f"Wick & Ember is played by {MIN_SEATS} to {MAX_SEATS} seats")
    if options.deck is not None and options.deck not in decks_allowed(seats):
        allowed = " or ".join(decks_allowed(seats))
        raise RuleViolation(f"at {seats} seats the deck must be {allowed}, not {options.deck}")
    target = options.ember_target
    if target is not None and not 1 <= target <= MAX_EMBER_TARGET:
        raise RuleViolation(f"the ember target must be 1 to {MAX_EMBER_TARGET}, not {target}")
    check_practice(options, seats, practice)


def check_practice(options: Options, seats: int, practice: bool) -> None:
    """A scripted deal and opener are for practice tables only, and must fit the table."""
    if not practice and (options.deal is not None or options.opener is not None):
        raise RuleViolation("a scripted deal or opener is only allowed at a practice table")
    if options.opener is not None and not 0 <= options.opener < seats:
        raise RuleViolation(f"the opener must be a seat from 0 to {seats - 1}")
    for number, names in enumerate(options.deal or [], start=1):
        check_deal_round(deck_for(options, seats), number, names)


def check_deal_round(deck: Deck, number: int, names: list[str]) -> None:
    """A scripted round must list every card of the deck in use exactly once, by name."""
    for name in names:
        if name not in NAMES:
            raise RuleViolation(f"round {number} of the deal: {name!r} is not a card name")
    dealt, wanted = Counter(names), composition(deck)
    for name in NAMES:
        if dealt[name] != wanted[name]:
            raise RuleViolation(
                f"round {number} of the deal has {dealt[name]} {name}, "
                f"the {deck} deck has {wanted[name]}"
            )


def scripted_deal(options: Options, deck: Deck) -> tuple[tuple[int, ...], ...]:
    """The practice deal as card identities: the k-th copy of a name is that rank's k-th id."""
    return tuple(_round_ids(deck, names) for names in options.deal or [])


def _round_ids(deck: Deck, names: list[str]) -> tuple[int, ...]:
    """One scripted round's card names turned into identities."""
    unused = {name: iter(ids) for name, ids in ids_by_name(deck).items()}
    return tuple(next(unused[name]) for name in names)
