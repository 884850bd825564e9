"""Request and response bodies of the REST API: msgspec Structs, documented in openapi/."""

from __future__ import annotations

import functools
import operator
import typing
from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from domain.core.bots import bot_names
from domain.core.decider import CardText
from domain.core.templates import ChooseCards
from domain.games import BUILT_IN, GAMES
from projections.log import LogLine
from service.names import VISIBLE_TEXT, person_text

# What a seat sees of the table: the View of the match's game (one per game this release is built
# with; the View of an extra game, HEARTHLOG_EXTRA_GAMES, is served but not in the document).
Board = functools.reduce(operator.or_, [GAMES[game_id].View for game_id in BUILT_IN])
# Text is stored in Postgres, which cannot hold a NUL character: refused here with a 400.
NO_NUL = r"^[^\x00]*$"


class PersonText:
    """Marks a field of text others will see: service.names.person_text decides it as the body
    is decoded (Body.__post_init__), at most ``most`` characters once prepared."""

    def __init__(self, most: int) -> None:
        self.most = most


# Text others will see: the pattern refuses what a JSON Schema pattern can name (the Basic
# Multilingual Plane's control, format and private-use characters, line breaks, blank); the decoder
# refuses the rest (service.names: invisible characters in every plane, blank text, text that
# grows when normalised) and prepares what passes as RFC 8266's nicknames are.
PERSON_RULE = ("Refused (400) besides: any character nobody sees in any plane (tags, variation "
               "selectors, fillers), blank text, text that grows when normalised; "
               "stored as RFC 8266 prepares a nickname (docs/api.md, Names)")
Name = Annotated[
    str, Meta(min_length=1, max_length=32, pattern=VISIBLE_TEXT,
              description=f"A player's name, 1 to 32 characters. {PERSON_RULE}"),
    PersonText(32),
]
Text = Annotated[str, Meta(min_length=1, max_length=100, pattern=VISIBLE_TEXT,
                           description=f"Text others see, at most 100 characters. {PERSON_RULE}"),
                 PersonText(100)]
# The server-side bots a seat can be given (each game has "random"; some have better ones).
# A Literal computed from the registered games at import: mypy cannot evaluate it.
BotName = Literal[  # type: ignore[valid-type]
    tuple(sorted({bot for game in GAMES.values() for bot in bot_names(game)}))
]


class Body(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Base of every request body: unknown fields are refused, not ignored; where a body names
    ``one_of``, it must carry at least one of those fields (documented and checked alike)."""

    one_of: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        """Each field of text others will see, decided by the one name rule (service.names)
        and kept as prepared; a ValueError here is the decoder's 400 naming the field."""
        for field, rule in person_fields(type(self)):
            value = getattr(self, field)
            if value is not None:
                prepared = person_text(value, what=f"the {field!r} field", most=rule.most)
                msgspec.structs.force_setattr(self, field, prepared)


@functools.cache
def person_fields(body: type[Body]) -> tuple[tuple[str, PersonText], ...]:
    """The body's fields of text others will see (typed Name or Text, optional or not)."""
    hints = typing.get_type_hints(body, include_extras=True)
    return tuple((field, rule) for field in body.__struct_fields__
                 for rule in _rules(hints[field]))


def _rules(hint: Any) -> list[PersonText]:
    """The PersonText marks in a type, looking inside Annotated and unions."""
    found = [mark for mark in getattr(hint, "__metadata__", ()) if isinstance(mark, PersonText)]
    return found + [rule for arg in typing.get_args(hint) for rule in _rules(arg)]


def unknown_fields(sent: Any, typed: Any, at: str = "command") -> list[str]:
    """The fields of ``sent`` (JSON as received) that ``typed`` (what it decoded to) has no place
    for, as paths: a command is strict like a body, though each game's Structs ignore unknowns."""
    found: list[str] = []
    if isinstance(typed, msgspec.Struct) and isinstance(sent, dict):
        known, tag = _places(type(typed))
        for key, value in sent.items():
            if key not in known and key != tag:
                found.append(f"{at}.{key}")
            elif isinstance(value, dict | list) and key != tag:  # only these can hide a field
                found += unknown_fields(value, getattr(typed, known[key]), f"{at}.{key}")
    elif isinstance(typed, list | tuple) and isinstance(sent, list):
        for n, (value, kept) in enumerate(zip(sent, typed, strict=False)):
            if isinstance(value, dict | list):
                found += unknown_fields(value, kept, f"{at}[{n}]")
    return found


@functools.cache
def _places(kind: type[msgspec.Struct]) -> tuple[dict[str, str], str | None]:
    """A Struct type's fields by the name they are sent under, and its tag's field: asked once
    per type (``msgspec.structs.fields`` reads the class's annotations again on every call)."""
    known = {field.encode_name: field.name for field in msgspec.structs.fields(kind)}
    return known, kind.__struct_config__.tag_field


class GameInfo(msgspec.Struct, kw_only=True):
    """A game in the catalogue: its latest rules version (new matches) and the ones carried."""

    id: str
    title: str
    rules_version: str
    rules_versions: Annotated[
        list[str], Meta(description="Every rules version this server replays, oldest first")
    ]
    min_seats: int
    max_seats: int
    options: Annotated[dict[str, Any], Meta(description="JSON Schema of the match options")]
    commands: Annotated[
        dict[str, Any],
        Meta(description="JSON Schema of the commands a seat sends: a union tagged by `type`"),
    ]
    view: Annotated[dict[str, Any], Meta(description="JSON Schema of a seat's view (`board`)")]
    bots: Annotated[
        list[str],
        Meta(description="The server-side bots a seat of this game can be given (`JoinSeat.bot`)"),
    ] = []
    cards: Annotated[
        list[CardText],
        Meta(description="What each card does, in words, for a client to show beside the table "
                         "(`code` as views write the card, without its suit where a rank decides)"),
    ] = []


class GameList(msgspec.Struct, kw_only=True):
    """The catalogue."""

    games: list[GameInfo]


class CreateMatch(Body):
    """Open a new match; the answer carries the host token that starts it."""

    game: Annotated[str, Meta(examples=["wick-and-ember"])]
    seats: Annotated[int, Meta(ge=1, le=64, examples=[4])]
    options: dict[str, Any] = {}
    tournament: Annotated[Text | None, Meta(
        description="A free tag for listings and exports; not the id of a tournament run here "
                    "(its tables are made by its rounds)")] = None
    label: Text | None = None
    practice: bool = False
    private: Annotated[
        bool, Meta(description="A private table: the answer's invite is needed to take a seat")
    ] = False
    turn_seconds: Annotated[
        int,
        Meta(ge=1, le=86400, description="A turn clock: a seat that does not act in time is "
             "played for by the server (the random bot's choice), logged as timed out"),
    ] | None = None
    rated: Annotated[
        bool, Meta(description="A rated match: its result changes its players' ratings; every "
                   "seat is taken with a player's token or given to a server bot; never practice")
    ] = False


class ResultInfo(msgspec.Struct, kw_only=True):
    """How a finished match ended; lists are indexed by seat."""

    winners: list[int]
    scores: list[int]
    placements: list[int]


class PlayerInfo(msgspec.Struct, kw_only=True):
    """A taken seat; ``bot`` names the server-side bot playing it (None: a person), ``player``
    the player who took it (None: an anonymous seat or a bot's)."""

    seat: int
    name: str
    bot: str | None = None
    player: str | None = None


class MatchSummary(msgspec.Struct, kw_only=True):
    """A match as listed: never anything hidden; the seeds only once it is finished."""

    match_id: str
    game: str
    rules_version: str
    status: Literal["lobby", "playing", "finished"]
    seats: int
    players: list[PlayerInfo]
    practice: bool
    private: bool = False
    rated: Annotated[bool, Meta(description="A rated match: its result moves its players' "
                                "ratings (docs/ratings.md)")] = False
    tournament: str | None
    label: str | None
    version: int
    seed_commitment: str
    server_seed: str | None = None
    client_seeds: list[str | None] | None = None
    result: ResultInfo | None = None
    created_at: datetime
    finished_at: datetime | None = None
    expires_at: Annotated[
        datetime | None,
        Meta(description="A lobby's end if it is not started by then: it can no longer be "
             "joined or started (410)"),
    ] = None


class MatchCreatedAnswer(msgspec.Struct, kw_only=True):
    """A new match and the host's token (shown once; keep it)."""

    match_id: str
    host_token: str
    match: MatchSummary
    invite: Annotated[
        str | None, Meta(description="A private table's invite: shown once, give it to the "
                         "players; each sends it to take a seat")
    ] = None


class MatchPage(msgspec.Struct, kw_only=True):
    """One page of matches, newest first."""

    matches: list[MatchSummary]
    next_offset: int | None


class JoinSeat(Body):
    """Take the next free seat, or give it to a server-side bot (named "Bot N" unless named).
    Needs a name or a bot, unless the request carries a player's token (`Authorization: Bearer`):
    then the seat is that player's, named as the player unless a name is given."""

    name: Name | None = None
    client_seed: Annotated[str, Meta(min_length=1, max_length=128, pattern=NO_NUL)] | None = None
    # BotName is a Literal computed at import (above): mypy cannot evaluate it.
    bot: Annotated[BotName, Meta(examples=["random"])] | None = None  # type: ignore[valid-type]
    invite: Annotated[str, Meta(max_length=64, pattern=NO_NUL,
                                description="The invite of a private table")] | None = None


class SeatAnswer(msgspec.Struct, kw_only=True):
    """The seat taken and its token (shown once; send it as `Authorization: Bearer`).

    A bot's seat has no token: nobody but the server acts for it or sees its hand.
    """

    seat: int
    token: str | None
    bot: str | None = None




class _GameCommand:
    """Marks a command field: JSON decoded by the match's game, documented as the games' unions."""


GAME_COMMAND = _GameCommand()
# A command of the match's game, decoded by that game's own union (its tags are its own, so two
# games may share one). The OpenAPI document lists each game's union (service.http.api.documents).
GameCommand = Annotated[dict[str, Any], GAME_COMMAND]


class SendCommand(Body):
    """A command for the caller's seat, exactly as `legal-actions` lists them."""

    command: Annotated[
        GameCommand,
        Meta(examples=[{"type": "play", "card": "lamp_warden", "target": 1, "guess": "gale"}]),
    ]
    command_id: Annotated[str, Meta(min_length=1, max_length=64, pattern=NO_NUL)] | None = None
    expected_version: Annotated[int, Meta(ge=0)] | None = None


class SeatDeadline(msgspec.Struct, kw_only=True):
    """When the server plays for one seat in to_act (its own clock, from when it began to owe)."""

    seat: int
    deadline: datetime


class MatchView(msgspec.Struct, kw_only=True):
    """What the caller may see now: a seat's view with its token, else the spectator's."""

    match_id: str
    game: str
    status: Literal["lobby", "playing", "finished"]
    version: int
    practice: bool
    seat: int | None
    players: list[PlayerInfo]
    # Board is the union of the built-in games' views, computed at import: mypy cannot evaluate it.
    board: Board | None  # type: ignore[valid-type]
    to_act: list[int] = []
    deadline: Annotated[
        datetime | None,
        Meta(description="With a turn clock: when your seat is played for if it is in to_act, "
             "else the soonest deadline of the seats in to_act"),
    ] = None
    deadlines: Annotated[
        list[SeatDeadline],
        Meta(description="With a turn clock: each seat in to_act and its own deadline"),
    ] = []


class CommandAnswer(msgspec.Struct, kw_only=True):
    """The match version after the command, the caller's new view and what its seat may send
    next (empty while it owes nothing), so a client never asks for them before its next move."""

    game: Annotated[str, Meta(
        description="The match's game: which game's commands `actions` holds (the document has "
                    "one variant of this answer per game)")]
    version: int
    view: MatchView
    actions: list[LegalAction] = []


class LegalAction(msgspec.Struct, kw_only=True):
    """One command the seat may send now, unchanged, and a short line naming it for a person;
    with ``choose``, a template: any other set of cards in one field is as legal."""

    command: GameCommand
    label: Annotated[str, Meta(examples=["Play Gale on Bryn"])]
    choose: Annotated[
        ChooseCards | None,
        Meta(description="A template, where the combinations would be many (Ember's discard "
             "to hand size, a payment of more than one handful): `command` is one legal move "
             "(the first set), and its field `choose.field` may instead hold any `choose.count` "
             "of the cards `choose.among` (a card listed twice may be chosen twice) that meet "
             "`choose.rule`; the server refuses any other set (422)"),
    ] = None


class LegalActions(msgspec.Struct, kw_only=True):
    """Every complete command the caller's seat may send now, each with its label."""

    game: Annotated[str, Meta(
        description="The match's game: which game's commands `actions` holds (the document has "
                    "one variant of this answer per game)")]
    version: int
    actions: list[LegalAction]


class LogPage(msgspec.Struct, kw_only=True):
    """Log lines after a version: public ones, plus the caller's private ones."""

    entries: list[LogLine]
    version: int


class Health(msgspec.Struct, kw_only=True):
    """The service and its database answer."""

    status: str
    database: str


class ErrorBody(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Every error answer: the status, a message naming the problem, and details if any
    (``extra`` is left out when there are none, as service.http.app.service_error writes it)."""

    status_code: int
    detail: str
    extra: dict[str, Any] | list[Any] | None = None


class StreamUpdate(msgspec.Struct, kw_only=True):
    """A stream message: versions first..version (its SSE id), your log lines, your view after."""

    game: Annotated[str, Meta(
        description="The match's game: which game's commands `actions` holds (the document has "
                    "one variant of this answer per game)")]
    first: int
    version: int
    log: list[LogLine]
    view: MatchView
    actions: Annotated[
        list[LegalAction] | None,
        Meta(description="A seat's stream: the seat's legal actions at `version`, as "
             "`legal-actions` answers them (empty when it has none); a spectator's: null"),
    ] = None


class StreamTicket(msgspec.Struct, kw_only=True):
    """A short-lived ticket for `GET /matches/{id}/stream?ticket=...` (EventSource sends no
    Authorization header): it opens the seat's stream until `expires_at`, and does nothing else."""

    seat: int
    ticket: str
    expires_at: datetime


class NewPlayer(Body):
    """Make a player: an identity across matches and tournaments, with its own token."""

    name: Name


class PlayerCreated(msgspec.Struct, kw_only=True):
    """A new player and its token (shown once; send it as `Authorization: Bearer`)."""

    player_id: str
    name: str
    token: str


class PlayerProfile(msgspec.Struct, kw_only=True):
    """A player as anyone may see it."""

    player_id: str
    name: str
    created_at: datetime


class PlayerMatch(msgspec.Struct, kw_only=True):
    """A match a player took a seat in, and how it went for that seat."""

    match_id: str
    game: str
    status: Literal["lobby", "playing", "finished"]
    practice: bool
    seat: int
    place: Annotated[int | None, Meta(
        description="The seat's place once finished (1 is first; seats that tie share one)")]
    won: bool | None
    created_at: datetime
    finished_at: datetime | None


class PlayerMatchPage(msgspec.Struct, kw_only=True):
    """One page of a player's matches, newest first."""

    matches: list[PlayerMatch]
    next_offset: int | None


class PlayerTournament(msgspec.Struct, kw_only=True):
    """A tournament a player registered in: its entrant number and name there."""

    tournament_id: str
    name: str
    status: str
    entrant: int
    entrant_name: str
    created_at: datetime
    finished_at: datetime | None


class PlayerTournamentPage(msgspec.Struct, kw_only=True):
    """One page of a player's tournaments, newest first."""

    tournaments: list[PlayerTournament]
    next_offset: int | None
