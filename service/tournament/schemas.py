"""Request and response bodies of the tournament routes (issue #18), documented in openapi/."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from domain.tournament import Action
from domain.tournament.crosstable import CrossRow
from domain.tournament.model import ENTRANTS_MAX, ROUNDS_MAX
from projections.tournament import StandingRow
from service.schemas import Body, BotName, Name, ResultInfo, Text

TieBreak = Literal["buchholz", "buchholz_cut1", "sonneborn_berger", "wins", "direct_encounter",
                   "firsts", "reached"]
Status = Literal["registering", "closed", "running", "finished", "cancelled"]
TableStatus = Literal["lobby", "playing", "finished", "missing"]


class CreateTournament(Body, kw_only=True):
    """Open a tournament; the answer carries the organizer token (shown once)."""

    name: Text
    game: Annotated[str, Meta(examples=["wick-and-ember"])]
    rules_version: Annotated[str, Meta(max_length=32, description="Default: the game's latest")
                             ] | None = None
    options: dict[str, Any] = {}
    table_size: Annotated[int, Meta(ge=1, le=64, examples=[2])]
    format: Literal["round-robin", "swiss", "single-elimination"]
    rounds: Annotated[int, Meta(ge=1, le=64)] | None = None
    seeding: Literal["registration", "standing"] = "registration"
    turn_seconds: Annotated[int, Meta(ge=1, le=86400)] | None = None
    auto_advance: Annotated[bool, Meta(
        description="Start the next round as the last table of a round finishes")] = False
    max_entrants: Annotated[int, Meta(ge=2, le=ENTRANTS_MAX, description=(
        "The most entrants it takes (absent: the server's cap, HEARTHLOG_TOURNAMENT_ENTRANTS)"
    ))] | None = None
    approval: Annotated[bool, Meta(
        description="Entrants wait for the organizer's approval; unapproved ones are dropped "
        "when registration closes")] = False
    forfeits_to_withdraw: Annotated[int, Meta(ge=1, le=ROUNDS_MAX, description=(
        "Withdraw an entrant at its N-th forfeit (absent: never)"))] | None = None
    late_entry_rounds: Annotated[int, Meta(ge=2, le=ROUNDS_MAX, description=(
        "Swiss: entrants may still register while it runs, before rounds 2 to this one; each "
        "enters at the next round (absent: no late entries)"))] | None = None
    timeouts_to_forfeit: Annotated[int, Meta(ge=1, le=100, description=(
        "With a turn clock: a seat timed out this many times in a row is forfeited by the "
        "server (absent: the clock plays for it to the end)"))] | None = None
    pairing: Annotated[Literal["house", "dutch"], Meta(description=(
        "Swiss at 2 seats: 'dutch' (FIDE's Dutch system, the default) or 'house' (the "
        "top-down search every table size uses); docs/tournaments.md"))] | None = None
    tiebreaks: Annotated[list[TieBreak], Meta(min_length=1, max_length=6, description=(
        "The tie-breaks in order, FIDE C.07's (docs/tournaments.md, section 5); absent: the "
        "format's. Single elimination keeps 'reached' first"))] | None = None


class Register(Body):
    """Register a person (the answer carries its player token) or a server-side bot. With a
    player's token (`Authorization: Bearer`), that player: its token is the entrant's, and its
    name the entrant's unless a name is given."""

    name: Name | None = None
    # BotName is a Literal computed at import (service.schemas): mypy cannot evaluate it.
    bot: Annotated[BotName, Meta(examples=["random"])] | None = None  # type: ignore[valid-type]


class Forfeit(Body):
    """The entrant (its number) whose table is conceded for it: a no-show."""

    entrant: Annotated[int, Meta(ge=0)]
    reason: Text | None = None


class ByHand(Body, kw_only=True):
    """The organizer's own pairing of the next Swiss round, and why (recorded in the bundle)."""

    tables: Annotated[list[list[Annotated[int, Meta(ge=0)]]], Meta(
        max_length=512, description="Each table's entrant numbers in seat order")]
    byes: list[Annotated[int, Meta(ge=0)]] = []
    reason: Text


class ByeRequest(Body, kw_only=True):
    """A round the entrant will not be paired in: a requested bye, worth a draw."""

    round: Annotated[int, Meta(ge=1, le=ROUNDS_MAX)]
    reason: Text | None = None


class Reason(Body):
    """Why the organizer acts: recorded with the action, in the bundle."""

    reason: Text | None = None


class EntrantInfo(msgspec.Struct, kw_only=True):
    """An entrant, by registration number and name; ``bot`` names a server-side bot."""

    number: int
    name: str
    bot: str | None = None
    withdrew_after: Annotated[int | None, Meta(
        description="The last round it was paired in before withdrawing; null: still in")] = None
    approved: Annotated[bool, Meta(
        description="False while it waits for the organizer's approval")] = True


class TableInfo(msgspec.Struct, kw_only=True):
    """One table of a round: its entrants in seat order and its match."""

    table: int
    seats: list[int]
    names: list[str]
    match_id: str
    status: TableStatus
    result: ResultInfo | None = None


class RoundInfo(msgspec.Struct, kw_only=True):
    """One started round: its tables and byes."""

    round: int
    tables: list[TableInfo]
    byes: list[int]
    started_at: datetime
    half_byes: list[int] = []


class TournamentInfo(msgspec.Struct, kw_only=True):
    """A tournament: settings, status, entrants and rounds; the seed only once finished."""

    tournament_id: str
    name: str
    game: str
    rules_version: str
    options: dict[str, Any]
    table_size: int
    format: str
    rounds_total: int | None
    seeding: str
    turn_seconds: int | None
    auto_advance: bool
    status: Status
    round: Annotated[int, Meta(description="The last round started (0: none yet)")]
    seed_commitment: str
    seed: str | None = None
    entrants: list[EntrantInfo]
    rounds: list[RoundInfo]
    created_at: datetime
    finished_at: datetime | None = None
    actions: list[Action] = []
    max_entrants: int | None = None
    approval: bool = False
    forfeits_to_withdraw: int | None = None
    tiebreaks: list[str] = []
    pairing: str | None = None


class TournamentListed(msgspec.Struct, kw_only=True):
    """A tournament as listed."""

    tournament_id: str
    name: str
    game: str
    format: str
    status: Status
    round: int
    entrants: int
    created_at: datetime


class TournamentPage(msgspec.Struct, kw_only=True):
    """One page of tournaments, newest first."""

    tournaments: list[TournamentListed]
    next_offset: int | None


class TournamentCreated(msgspec.Struct, kw_only=True):
    """A new tournament and its organizer token (shown once; keep it)."""

    tournament_id: str
    organizer_token: str
    seed_commitment: str
    tournament: TournamentInfo


class Registered(msgspec.Struct, kw_only=True):
    """The entrant registered and, for a person, its player token (shown once): it finds its
    table (`GET /tournaments/{id}/me`) and is its seat token in every match of the tournament."""

    entrant: EntrantInfo
    player_token: str | None = None


class MyTable(msgspec.Struct, kw_only=True):
    """Where the token's entrant plays now: its table, match and seat (null between rounds)."""

    entrant: EntrantInfo
    round: int
    table: int | None = None
    match_id: str | None = None
    seat: int | None = None
    status: TableStatus | None = None
    bye: bool = False


class StandingsInfo(msgspec.Struct, kw_only=True):
    """The standings after the rounds whose tables are all finished."""

    tournament_id: str
    after_round: int
    standings: list[StandingRow]


class CrosstableInfo(msgspec.Struct, kw_only=True):
    """Every entrant's result in every whole round, in standing order (docs/tournaments.md)."""

    tournament_id: str
    after_round: int
    table_size: int
    rows: list[CrossRow]
