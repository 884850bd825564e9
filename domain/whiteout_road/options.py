"""The host's options: the burial mark (R3), and a practice table's scripted deal."""

from collections import Counter
from typing import Annotated

import msgspec

from domain.core.errors import RuleViolation
from domain.whiteout_road.cards import EVERY_CARD

MIN_SEATS, MAX_SEATS = 2, 6
NIGHTS = 3
MARK_MIN, MARK_MAX = 1, 60

# R2: cards dealt to each player, by the number of players.
HAND_SIZES = {2: 8, 3: 8, 4: 8, 5: 7, 6: 6}

# R3: the default burial mark by the number of players, chosen with bench/burial_mark.py so that
# 15% to 35% of nights end buried with random legal play (docs/rules/whiteout-road.md).
BURIAL_MARKS = {2: 17, 3: 19, 4: 21, 5: 21, 6: 22}


class Options(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """What the host chooses when opening a match, plus a practice table's scripted deal."""

    burial_mark: Annotated[
        int | None,
        msgspec.Meta(
            description=f"The snow level that buries the road, {MARK_MIN} to {MARK_MAX}; "
            "null for the default of the player count (R3)."
        ),
    ] = None
    deal: Annotated[
        list[list[str]] | None,
        msgspec.Meta(
            description="Practice tables only: per night, all 49 card names from the top "
            "(hands are dealt from it seat by seat, skipping WHITEOUT; the rest, WHITEOUT "
            "where it lies, is the Fate deck from its top)."
        ),
    ] = None


def burial_mark_for(options: Options, seats: int) -> int:
    """R3: the host's burial mark, else the default for the player count."""
    return options.burial_mark if options.burial_mark is not None else BURIAL_MARKS[seats]


def check_options(options: Options, seats: int, practice: bool) -> None:
    """Raise RuleViolation when the options do not fit a table of this many players."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleViolation(f"Whiteout Road is played by {MIN_SEATS} to {MAX_SEATS} players")
    mark = options.burial_mark
    if mark is not None and not MARK_MIN <= mark <= MARK_MAX:
        raise RuleViolation(f"the burial mark must be {MARK_MIN} to {MARK_MAX}, not {mark}")
    if options.deal is not None and not practice:
        raise RuleViolation("a scripted deal is only allowed at a practice table")
    for number, names in enumerate(options.deal or [], start=1):
        check_deal_night(number, names)


def check_deal_night(number: int, names: list[str]) -> None:
    """A scripted night lists the 48 cards and the whiteout, each exactly once, by name."""
    known = set(EVERY_CARD)
    for name in names:
        if name not in known:
            raise RuleViolation(f"night {number} of the deal: {name!r} is not a card name")
    twice = sorted(name for name, count in Counter(names).items() if count > 1)
    if twice:
        raise RuleViolation(f"night {number} of the deal lists {twice[0]} more than once")
    missing = [name for name in EVERY_CARD if name not in set(names)]
    if missing:
        raise RuleViolation(f"night {number} of the deal is missing {missing[0]}")


def scripted_deal(options: Options) -> tuple[tuple[str, ...], ...]:
    """The practice deal as stored in the opening event."""
    return tuple(tuple(night) for night in options.deal or [])
