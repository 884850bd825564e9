"""The host's options (E9: ``call_at``; EH1: ``turn_cap``; the EH15 variant:
``first_player_skips_draw``) and a practice table's scripted deal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

import msgspec

from domain.core.errors import RuleViolation
from domain.ember.cards import ARCHMAGE, ARTIFACTS, TUTORS, WIZARD_CARDS, shown

MIN_SEATS, MAX_SEATS = 2, 5
CALL_AT = (20, 100)
TURN_CAP = (10, 100)
DEALT_ARTIFACTS = 3
FIRST_FACE_UP = 6  # E2: VP 1 to 6 start face up


class Options(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """What the host chooses (E9, EH1, the EH15 variant), and for practice the deck's top cards,
    the tutors in seat order, the three artifacts, how many Pool groups start face up and who
    goes first."""

    call_at: int = 30
    turn_cap: int = 30
    # EH15, a variant off by default: the first player has no draw step on the first turn of all
    # (rules version 1 always played so; from version 2 the rulebook's turn, E7, unless chosen).
    first_player_skips_draw: bool = False
    deck: list[str] | None = None
    tutors: list[str] | None = None
    artifacts: list[str] | None = None
    face_up: int | None = None
    first: int | None = None


def check_options(options: Options, seats: int, practice: bool) -> None:
    """Raise RuleViolation when the options do not fit a table of this many seats."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleViolation(f"Ember is played by {MIN_SEATS} to {MAX_SEATS} seats")
    if not CALL_AT[0] <= options.call_at <= CALL_AT[1]:
        raise RuleViolation(f"call_at must be {CALL_AT[0]} to {CALL_AT[1]} VP, "
                            f"not {options.call_at}")
    if not TURN_CAP[0] <= options.turn_cap <= TURN_CAP[1]:
        raise RuleViolation(f"turn_cap must be {TURN_CAP[0]} to {TURN_CAP[1]} rounds, "
                            f"not {options.turn_cap}")
    scripted = (options.deck, options.tutors, options.artifacts, options.face_up, options.first)
    if not practice and any(value is not None for value in scripted):
        raise RuleViolation("a scripted deck, tutors, artifacts, Pool or first player is only "
                            "allowed at a practice table")
    check_script(options, seats)


def check_script(options: Options, seats: int) -> None:
    """A practice script must name real cards, each at most once, and fit the table."""
    if options.deck is not None:
        known = Counter(shown(card) for card in WIZARD_CARDS)
        for name, count in Counter(options.deck).items():
            if name not in known:
                raise RuleViolation(f"the scripted deck names {name!r}, not a wizard card")
            if count > known[name]:
                raise RuleViolation(f"the scripted deck has {count} {name}; there are "
                                    f"{known[name]}")
    _check_names("tutors", options.tutors, TUTORS, seats)
    _check_names("artifacts", options.artifacts, ARTIFACTS, DEALT_ARTIFACTS)
    if options.face_up is not None and not FIRST_FACE_UP <= options.face_up <= 13:
        raise RuleViolation("face_up must be 6 to 13 (the highest Pool group face up)")
    if options.first is not None and not 0 <= options.first < seats:
        raise RuleViolation(f"first must be a seat from 0 to {seats - 1}")


def _check_names(
    what: str, names: list[str] | None, known: Collection[str], count: int
) -> None:
    """A scripted list of distinct known card ids, exactly ``count`` long."""
    if names is None:
        return
    if len(names) != count or len(set(names)) != count:
        raise RuleViolation(f"the scripted {what} must be {count} different cards")
    for name in names:
        if name not in known:
            raise RuleViolation(f"the scripted {what} name {name!r}, not one of ours")


def scripted_top(options: Options) -> tuple[str, ...]:
    """The scripted deck's card ids: Archmages take their ids in order."""
    archmages = iter(card for card in WIZARD_CARDS if card.startswith(ARCHMAGE))
    return tuple(next(archmages) if name == ARCHMAGE else name for name in options.deck or [])
