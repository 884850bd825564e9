"""A match around any game: the lobby where seats are taken, then the table where it is played.

The match stream starts with ``MatchCreated`` and ``SeatJoined`` events, then ``MatchStarted``
followed by the game's own events.  Lobby and table are separate state types, not a flag.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.decider import Game
from domain.core.errors import BrokenInvariant, RuleViolation, WrongPhase
from domain.core.rng import Rng, mix_seeds

NAME_MAX = 32
CLIENT_SEED_MAX = 128


class MatchCreated(msgspec.Struct, tag="match_created", frozen=True, kw_only=True):
    """A host opened a match: the game, its options and the server seed's commitment."""

    game: str
    rules_version: str
    seats: int
    options: dict[str, Any] = {}
    practice: bool = False
    tournament: str | None = None
    label: str | None = None
    seed_commitment: str


class SeatJoined(msgspec.Struct, tag="seat_joined", frozen=True, kw_only=True):
    """A player took the next free seat, optionally adding a client seed to the match seed."""

    seat: int
    name: str
    client_seed: str | None = None


class MatchStarted(msgspec.Struct, tag="match_started", frozen=True, kw_only=True):
    """The host started play; the game's opening events follow at once."""


MatchEvent = MatchCreated | SeatJoined | MatchStarted


class JoinSeat(msgspec.Struct, tag="join_seat", frozen=True, kw_only=True):
    """Take the next free seat."""

    name: str
    client_seed: str | None = None


class StartMatch(msgspec.Struct, tag="start_match", frozen=True, kw_only=True):
    """Begin play once every seat is taken."""


class Lobby(msgspec.Struct, frozen=True, kw_only=True):
    """Seats are being taken; nothing has been dealt."""

    created: MatchCreated
    names: tuple[str, ...] = ()
    client_seeds: tuple[str | None, ...] = ()


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """Play has begun; ``game`` is the game's own state (over when its outcome is known)."""

    created: MatchCreated
    names: tuple[str, ...]
    client_seeds: tuple[str | None, ...]
    game: Any


MatchState = Lobby | Table


def open_match(
    game: Game,
    *,
    seats: int,
    options: dict[str, Any],
    practice: bool,
    tournament: str | None,
    label: str | None,
    seed_commitment: str,
) -> MatchCreated:
    """Check a new match's seat count and options, and return its first event."""
    if not game.min_seats <= seats <= game.max_seats:
        raise RuleViolation(
            f"{game.title} is played by {game.min_seats} to {game.max_seats} seats, not {seats}"
        )
    game.check_options(decode_options(game, options), seats, practice)
    return MatchCreated(
        game=game.id,
        rules_version=game.rules_version,
        seats=seats,
        options=options,
        practice=practice,
        tournament=tournament,
        label=label,
        seed_commitment=seed_commitment,
    )


def decode_options(game: Game, options: dict[str, Any]) -> Any:
    """The game's typed options from the JSON object a host sent."""
    try:
        return msgspec.convert(options, game.Options, strict=True)
    except msgspec.ValidationError as error:
        raise RuleViolation(f"invalid options: {error}") from None


def decide(game: Game, state: MatchState, seat: int | None, command: Any, seed: bytes) -> list[Any]:
    """The events a command causes; ``seed`` is the server seed, mixed here with client seeds."""
    match state, command:
        case Lobby(), JoinSeat():
            return [_join(state, command)]
        case Lobby(), StartMatch():
            return _start(game, state, seed)
        case Lobby(), _:
            raise WrongPhase("the match has not started yet")
        case Table(), JoinSeat():
            raise WrongPhase("the match has already started; no seat is free")
        case Table(), StartMatch():
            raise WrongPhase("the match has already started")
        case Table(), _ if game.outcome(state.game) is not None:
            raise WrongPhase("the match is over")
        case Table(), _:
            if seat is None:
                raise RuleViolation("only a seated player can act")
            return game.decide(state.game, seat, command, table_rng(state, seed))
    raise BrokenInvariant(f"no rule for {type(command).__name__} in {type(state).__name__}")


def table_rng(state: MatchState, seed: bytes) -> Rng:
    """The match's generator, keyed by the server seed mixed with every client seed."""
    return Rng(mix_seeds(seed, state.client_seeds))


def _join(state: Lobby, command: JoinSeat) -> SeatJoined:
    """Seat a player in the next free seat."""
    if len(state.names) >= state.created.seats:
        raise WrongPhase(f"all {state.created.seats} seats are taken")
    name = command.name.strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise RuleViolation(f"a name must be 1 to {NAME_MAX} characters")
    if name.casefold() in {taken.casefold() for taken in state.names}:
        raise RuleViolation(f"the name {name!r} is already taken at this table")
    seed = command.client_seed
    if seed is not None and not 1 <= len(seed) <= CLIENT_SEED_MAX:
        raise RuleViolation(f"a client seed must be 1 to {CLIENT_SEED_MAX} characters")
    return SeatJoined(seat=len(state.names), name=name, client_seed=seed)


def _start(game: Game, state: Lobby, seed: bytes) -> list[Any]:
    """Start play: every seat must be taken; the game deals from the mixed seed."""
    seats = state.created.seats
    if len(state.names) < seats:
        raise WrongPhase(f"only {len(state.names)} of {seats} seats are taken")
    options = decode_options(game, state.created.options)
    return [MatchStarted(), *game.setup(options, state.names, table_rng(state, seed))]


def evolve(game: Game, state: MatchState | None, event: Any) -> MatchState:
    """Record one event of the match stream."""
    match state, event:
        case None, MatchCreated():
            return Lobby(created=event)
        case Lobby(), SeatJoined():
            return msgspec.structs.replace(
                state,
                names=(*state.names, event.name),
                client_seeds=(*state.client_seeds, event.client_seed),
            )
        case Lobby(), MatchStarted():
            return Table(
                created=state.created,
                names=state.names,
                client_seeds=state.client_seeds,
                game=None,
            )
        case Table(), _:
            return msgspec.structs.replace(state, game=game.evolve(state.game, event))
    raise BrokenInvariant(f"cannot apply {type(event).__name__} to {type(state).__name__}")


def fold(game: Game, events: list[Any], state: MatchState | None = None) -> MatchState:
    """The state after a list of events, from the beginning or from a given state."""
    for event in events:
        state = evolve(game, state, event)
    if state is None:
        raise BrokenInvariant("a match stream cannot be empty")
    return state


def outcome(game: Game, state: MatchState) -> Any:
    """The finished match's outcome, or None while it is in the lobby or in play."""
    return game.outcome(state.game) if isinstance(state, Table) else None


def status(game: Game, state: MatchState) -> str:
    """'lobby', 'playing' or 'finished'."""
    if isinstance(state, Lobby):
        return "lobby"
    return "finished" if game.outcome(state.game) is not None else "playing"
