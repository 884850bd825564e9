"""A tournament's settings, entrants, pairings and results: the plain records every format shares.

Pure: no I/O, no clock, no global random. The rules are stated in docs/tournaments.md.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

Format = Literal["round-robin", "swiss", "single-elimination"]
Seeding = Literal["registration", "standing"]
FORMATS: tuple[str, ...] = ("round-robin", "swiss", "single-elimination")
ROUNDS_MAX = 64
TURN_SECONDS_MAX = 24 * 3600
ENTRANTS_MAX = 1024  # the most any tournament may take (a server may cap lower)


class TournamentError(Exception):
    """A request the tournament rules refuse, with a message a person understands."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NoRound(TournamentError):
    """No further round can be paired: too few entrants are left, or the bracket is decided.
    The tournament ends after the rounds it has played (docs/tournaments.md, "Ending")."""


class Settings(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What an organizer chose: the game, its table size, the format and the number of rounds.
    Defaults are left out of its encoding, so a setting added later with a default does not
    change the canonical form (and the id) of a tournament made before it."""

    game: str
    rules_version: str
    options: dict[str, Any] = {}
    table_size: int
    format: Format
    rounds: int | None = None  # None: the format's natural count (rounds_total)
    seeding: Seeding = "registration"  # single elimination only
    turn_seconds: int | None = None
    max_entrants: int | None = None  # None: the server's cap
    approval: bool = False  # entrants wait for the organizer's approval
    forfeits_to_withdraw: int | None = None  # None: forfeits never withdraw an entrant
    tiebreaks: list[str] | None = None  # None: the format's (domain.tournament.tiebreaks)
    pairing: Literal["house", "dutch"] | None = None  # None: house; dutch: 2-seat Swiss only
    timeouts_to_forfeit: int | None = None  # a seat timed out this many times in a row forfeits
    late_entry_rounds: int | None = None  # late entries may join before rounds 2 to this one


class Entrant(msgspec.Struct, frozen=True, kw_only=True):
    """A registered player (or bot); ``withdrew_after`` is the last round it was paired in."""

    number: int  # registration order, from 0
    name: str
    bot: str | None = None
    withdrew_after: int | None = None  # None: still in
    byes_requested: list[int] = []  # rounds it asked not to be paired in (a half-point bye)
    first_round: int = 1  # a late entry: the first round it may be paired in


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a round: entrant numbers in seat order."""

    number: int  # from 1
    seats: list[int]


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """One round's tables and the entrants given a bye."""

    round: int  # from 1
    tables: list[Table]
    byes: list[int]  # pairing-allocated: worth a win
    half_byes: list[int] = []  # requested: worth a draw (Entrant.byes_requested)


class TableResult(msgspec.Struct, frozen=True, kw_only=True):
    """A table's verified result: placements indexed by seat (1 = first; ties share), and the
    entrants who forfeited it (their games there are not played ones)."""

    round: int
    table: int
    placements: list[int]
    forfeited: list[int] = []


class RoundRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A round as played: its pairing and the results of its finished tables."""

    pairing: Pairing
    results: list[TableResult] = []
    void: list[int] = []  # tables declared void: no match, no result

    def result(self, table: int) -> TableResult | None:
        """The result of table ``table``, or None while it has none."""
        return next((r for r in self.results if r.table == table), None)


def check_settings(settings: Settings, min_seats: int, max_seats: int) -> None:
    """Refuse settings no tournament can be run with, naming the problem."""
    size = settings.table_size
    if settings.format not in FORMATS:
        raise TournamentError(f"unknown format {settings.format!r}; formats: {', '.join(FORMATS)}")
    if not min_seats <= size <= max_seats:
        raise TournamentError(
            f"table_size {size} is outside the game's {min_seats} to {max_seats} seats"
        )
    if settings.format == "single-elimination" and size != 2:
        raise TournamentError(
            f"single-elimination pairs 2-seat tables, not {size}; use swiss or round-robin "
            "for larger tables"
        )
    if settings.rounds is not None and settings.format == "single-elimination":
        raise TournamentError("single-elimination plays the rounds its bracket needs; leave "
                              "rounds out")
    if settings.rounds is not None and not 1 <= settings.rounds <= ROUNDS_MAX:
        raise TournamentError(f"rounds must be 1 to {ROUNDS_MAX}, or absent for the natural count")
    if settings.seeding != "registration" and settings.format != "single-elimination":
        raise TournamentError("seeding applies to single-elimination only")
    seconds = settings.turn_seconds
    if seconds is not None and not 1 <= seconds <= TURN_SECONDS_MAX:
        raise TournamentError(f"turn_seconds must be 1 to {TURN_SECONDS_MAX}, or absent")
    cap = settings.max_entrants
    if cap is not None and not max(2, size) <= cap <= ENTRANTS_MAX:
        raise TournamentError(f"max_entrants must be {max(2, size)} to {ENTRANTS_MAX}, or absent")
    late = settings.late_entry_rounds
    if late is not None and (not 2 <= late <= ROUNDS_MAX or settings.format != "swiss"):
        raise TournamentError(f"late_entry_rounds must be 2 to {ROUNDS_MAX}, in a Swiss only "
                              "(a schedule or a bracket is fixed at the start)")
    idle = settings.timeouts_to_forfeit
    if idle is not None and (seconds is None or not 1 <= idle <= 100):
        raise TournamentError("timeouts_to_forfeit must be 1 to 100, with a turn clock "
                              "(turn_seconds)")
    if settings.pairing == "dutch" and (settings.format != "swiss" or size != 2):
        raise TournamentError("pairing 'dutch' (FIDE's Dutch system) pairs 2-seat Swiss only")
    check_tiebreaks(settings.format, settings.tiebreaks)
    limit = settings.forfeits_to_withdraw
    if limit is not None and not 1 <= limit <= ROUNDS_MAX:
        raise TournamentError(f"forfeits_to_withdraw must be 1 to {ROUNDS_MAX}, or absent")


def paired(entrants: list[Entrant], round_number: int) -> list[Entrant]:
    """The entrants to pair in a round: still in and not on a requested bye, in number order."""
    return [e for e in active(entrants, round_number) if round_number not in e.byes_requested]


def active(entrants: list[Entrant], round_number: int) -> list[Entrant]:
    """The entrants who may be paired in a round (not withdrawn before it), in number order."""
    return [
        e for e in sorted(entrants, key=lambda e: e.number)
        if (e.withdrew_after is None or e.withdrew_after >= round_number)
        and e.first_round <= round_number
    ]


# The tie-breaks an organizer may name (domain.tournament.tiebreaks computes them).
TIEBREAK_NAMES = ("buchholz", "buchholz_cut1", "sonneborn_berger", "wins", "direct_encounter",
                  "firsts", "reached")


def check_tiebreaks(format: str, chosen: list[str] | None) -> None:
    """Refuse an unknown, repeated or misplaced tie-break, naming it."""
    for name in chosen or []:
        if name not in TIEBREAK_NAMES:
            raise TournamentError(f"unknown tie-break {name!r}; tie-breaks: "
                                  f"{', '.join(TIEBREAK_NAMES)}")
        if name == "reached" and format != "single-elimination":
            raise TournamentError("the tie-break 'reached' is single-elimination's only")
    if chosen is not None and len(set(chosen)) != len(chosen):
        raise TournamentError("a tie-break is named twice")
    if chosen is not None and not 1 <= len(chosen) <= 6:
        raise TournamentError("tiebreaks must name 1 to 6 tie-breaks")
