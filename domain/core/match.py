"""A match around any game: the lobby where seats are taken, then the table where it is played.

The match stream starts with ``MatchCreated`` and ``SeatJoined`` events, then ``MatchStarted``
followed by the game's own events.  Lobby and table are separate state types, not a flag.  Both
count the events folded (``version``), and the table keeps, for each seat the rules wait on, the
version at which it began to owe its move (``owing``): a per-seat turn clock runs from there.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Generic, Literal, TypeAlias, TypeVar, cast

import msgspec

from domain.core.bots import bot_names
from domain.core.decider import Concede, Game, Outcome, Rulebook
from domain.core.errors import BrokenInvariant, NotYourTurn, RuleViolation, WrongPhase
from domain.core.rng import Rng, mix_seeds

S = TypeVar("S")  # the game's own state (its Rulebook's S)
C = TypeVar("C")  # the game's commands
E = TypeVar("E")  # the game's events
A = TypeVar("A")  # the game's legal actions

NAME_MAX = 32
CLIENT_SEED_MAX = 128
TURN_SECONDS_MAX = 24 * 3600


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
    turn_seconds: int | msgspec.UnsetType = msgspec.UNSET  # unset (and not encoded): no clock
    rated: bool | msgspec.UnsetType = msgspec.UNSET  # set (True) only for a rated match


class SeatJoined(msgspec.Struct, tag="seat_joined", frozen=True, kw_only=True):
    """A player took the next free seat, optionally adding a client seed to the match seed."""

    seat: int
    name: str
    client_seed: str | None = None
    bot: str | msgspec.UnsetType = msgspec.UNSET  # the server-side bot playing it; unset: a person
    player: str | msgspec.UnsetType = msgspec.UNSET  # the player id that took it; unset: none


class MatchStarted(msgspec.Struct, tag="match_started", frozen=True, kw_only=True):
    """The host started play; the game's opening events follow at once."""


class SeatTimedOut(msgspec.Struct, tag="seat_timed_out", frozen=True, kw_only=True):
    """A seat owing an action ran out of time; the events of the play made for it follow."""

    seat: int


MatchEvent = MatchCreated | SeatJoined | MatchStarted | SeatTimedOut


class JoinSeat(msgspec.Struct, tag="join_seat", frozen=True, kw_only=True):
    """Take the next free seat; ``player`` is the id of the player taking it (the service fills
    it from the player's token, never from a request body)."""

    name: str
    client_seed: str | None = None
    bot: str | None = None
    player: str | None = None


class StartMatch(msgspec.Struct, tag="start_match", frozen=True, kw_only=True):
    """Begin play once every seat is taken."""


class TimeOut(msgspec.Struct, tag="time_out", frozen=True, kw_only=True):
    """The server plays for a seat whose turn clock ran out; ``action`` is a legal action of it."""

    seat: int
    action: dict[str, Any]


MatchCommand = JoinSeat | StartMatch | TimeOut


class Lobby(msgspec.Struct, frozen=True, kw_only=True):
    """Seats are being taken; nothing has been dealt."""

    created: MatchCreated
    names: tuple[str, ...] = ()
    client_seeds: tuple[str | None, ...] = ()
    bots: tuple[str | None, ...] = ()
    players: tuple[str | None, ...] = ()  # each seat's player id (None: anonymous or a bot)
    version: int = 1


class Table(msgspec.Struct, Generic[S], frozen=True, kw_only=True):
    """Play has begun; ``game`` is the game's own state (its ``initial`` until the deal).

    ``owing`` is ``to_act`` as of the last event, and ``since`` (index by index) the version at
    which each of those seats began to owe: a seat that stays in ``to_act`` from event to event
    keeps its version; one that leaves and comes back (it moved, a reaction window paused it)
    begins again. Two plain tuples, so the common event that changes nobody's turn costs one
    tuple comparison in the fold.
    """

    created: MatchCreated
    names: tuple[str, ...]
    client_seeds: tuple[str | None, ...]
    game: S
    bots: tuple[str | None, ...] = ()
    players: tuple[str | None, ...] = ()
    version: int = 0
    owing: tuple[int, ...] = ()
    since: tuple[int, ...] = ()


MatchState: TypeAlias = Lobby | Table[Any]  # a match of any game
MatchStateOf: TypeAlias = Lobby | Table[S]  # a match of one game, its state typed
MatchStatus = Literal["lobby", "playing", "finished"]


def open_match(
    game: Game,
    *,
    seats: int,
    options: dict[str, Any],
    practice: bool,
    tournament: str | None,
    label: str | None,
    seed_commitment: str,
    turn_seconds: int | None = None,
    rated: bool = False,
) -> MatchCreated:
    """Check a new match's seat count, options, turn clock and rating, and return its first
    event."""
    if not game.min_seats <= seats <= game.max_seats:
        raise RuleViolation(
            f"{game.title} is played by {game.min_seats} to {game.max_seats} seats, not {seats}"
        )
    if turn_seconds is not None and not 1 <= turn_seconds <= TURN_SECONDS_MAX:
        raise RuleViolation(f"turn_seconds must be 1 to {TURN_SECONDS_MAX}, or absent for no clock")
    if rated and practice:
        raise RuleViolation("a practice match cannot be rated: its deal is chosen, not shuffled")
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
        turn_seconds=msgspec.UNSET if turn_seconds is None else turn_seconds,
        rated=True if rated else msgspec.UNSET,
    )


def decode_options(game: Game, options: dict[str, Any]) -> Any:
    """The game's typed options from the JSON object a host sent."""
    try:
        return msgspec.convert(options, game.Options, strict=True)
    except msgspec.ValidationError as error:
        raise RuleViolation(f"invalid options: {error}") from None


def decide(
    game: Rulebook[S, C, E, Any, Any],
    state: MatchStateOf[S],
    seat: int | None,
    command: C | MatchCommand,
    seed: bytes,
) -> list[E | MatchEvent]:
    """The events a command causes; ``seed`` is the server seed, mixed here with client seeds."""
    return decide_and_evolve(game, state, seat, command, seed)[0]


def decide_and_evolve(
    game: Rulebook[S, C, E, Any, Any],
    state: MatchStateOf[S],
    seat: int | None,
    command: C | MatchCommand,
    seed: bytes,
) -> tuple[list[E | MatchEvent], MatchStateOf[S]]:
    """The events a command causes and the state they lead to (the game's steps, not a re-fold)."""
    events, states = _decide(game, state, seat, command, seed)
    if states is None or not isinstance(state, Table):
        return events, fold(game, events, state)
    return events, _advanced(game, state, states)


class Decided(msgspec.Struct, Generic[S], frozen=True, kw_only=True):
    """A command's events with the match as it stood before each of them and after the last:
    ``states[i]`` before ``events[i]``, ``states[i + 1]`` after it (one more state than events)."""

    events: list[Any]
    states: list[MatchStateOf[S]]

    @property
    def after(self) -> MatchStateOf[S]:
        """The match after the command's last event."""
        return self.states[-1]


def decide_each(
    game: Rulebook[S, C, E, Any, Any],
    state: MatchStateOf[S],
    seat: int | None,
    command: C | MatchCommand,
    seed: bytes,
) -> Decided[S]:
    """``decide_and_evolve`` with the match after each event as well (the game's steps, not a
    re-fold): what the log lines of each event and a follower's feed need."""
    events, states = _decide(game, state, seat, command, seed)
    if states is None or not isinstance(state, Table):
        folded = [state]
        for event in events:  # the lobby's own events: few, folded
            folded.append(evolve(game, folded[-1], event))
        return Decided(events=events, states=folded)
    return Decided(events=events, states=_each(game, state, states))


def _decide(
    game: Rulebook[S, C, E, Any, Any],
    state: MatchStateOf[S],
    seat: int | None,
    command: C | MatchCommand,
    seed: bytes,
) -> tuple[list[E | MatchEvent], list[S] | None]:
    """The events a command causes, with the game state after each of them when play decided
    them (None: the match's own lobby events, which are folded)."""
    match state, command:
        case Lobby(), JoinSeat():
            return [_join(game, state, command)], None
        case Lobby(), StartMatch():
            return _start(game, state, seed), None
        case Lobby(), _:
            raise WrongPhase("the match has not started yet")
        case Table(), JoinSeat():
            raise WrongPhase("the match has already started; no seat is free")
        case Table(), StartMatch():
            raise WrongPhase("the match has already started")
        case Table(), _ if game.outcome(state.game) is not None:
            raise WrongPhase("the match is over")
        case Table(), TimeOut():
            return _time_out(game, state, command, seed)
        case Table(), _:
            if seat is None:
                raise RuleViolation("only a seated player can act")
            steps = game.decide_steps(state.game, seat, command, table_rng(state, seed))
            # The steps' own fresh list, nobody else's: as the match stream's it may hold any event.
            events = cast("list[E | MatchEvent]", steps.events)
            return events, _recorded(game, events, steps.states)
    raise BrokenInvariant(f"no rule for {type(command).__name__} in {type(state).__name__}")


def table_rng(state: MatchStateOf[Any], seed: bytes) -> Rng:
    """The match's generator, keyed by the server seed mixed with every client seed."""
    return Rng(_match_seed(seed, state.client_seeds))


@functools.lru_cache(maxsize=4096)
def _match_seed(seed: bytes, client_seeds: tuple[str | None, ...]) -> bytes:
    """mix_seeds, computed once per match rather than once per command (it is pure)."""
    return mix_seeds(seed, client_seeds)


def _join(game: Game, state: Lobby, command: JoinSeat) -> SeatJoined:
    """Seat a player (or a bot, named "Bot N" unless named) in the next free seat."""
    if len(state.names) >= state.created.seats:
        raise WrongPhase(f"all {state.created.seats} seats are taken")
    name = command.name.strip() or (_bot_name(state) if command.bot else "")
    if not 1 <= len(name) <= NAME_MAX:
        raise RuleViolation(f"a name must be 1 to {NAME_MAX} characters")
    if name.casefold() in {taken.casefold() for taken in state.names}:
        raise RuleViolation(f"the name {name!r} is already taken at this table")
    seed = command.client_seed
    if seed is not None and not 1 <= len(seed) <= CLIENT_SEED_MAX:
        raise RuleViolation(f"a client seed must be 1 to {CLIENT_SEED_MAX} characters")
    check_player(state, command)
    player = msgspec.UNSET if command.player is None else command.player
    if command.bot is None:
        return SeatJoined(seat=len(state.names), name=name, client_seed=seed, player=player)
    if command.bot not in bot_names(game):
        known = ", ".join(bot_names(game))
        raise RuleViolation(f"{game.title} has no bot {command.bot!r}; its bots: {known}")
    return SeatJoined(seat=len(state.names), name=name, client_seed=seed, bot=command.bot)


def check_player(state: Lobby, command: JoinSeat) -> None:
    """A seat of a rated match is a player's or a server bot's; a player takes one seat a table;
    a bot's seat is nobody's."""
    if command.bot is not None and command.player is not None:
        raise RuleViolation("a server bot's seat cannot also be a player's")
    if rated(state) and command.bot is None and command.player is None:
        raise RuleViolation("this match is rated: a seat is taken by a player (send the "
                            "player's token) or given to a server bot")
    if command.player is not None and command.player in state.players:
        seat = state.players.index(command.player)
        raise RuleViolation(f"this player already holds seat {seat} at this table")


def _bot_name(state: Lobby) -> str:
    """The first of "Bot 1", "Bot 2", ... not yet taken at the table."""
    taken = {name.casefold() for name in state.names}
    return next(f"Bot {n}" for n in range(1, len(taken) + 2) if f"bot {n}" not in taken)


def _time_out(
    game: Rulebook[S, Any, E, Any, Any], state: Table[S], command: TimeOut, seed: bytes
) -> tuple[list[E | MatchEvent], list[S]]:
    """Play for a seat whose clock ran out: its time-out, then the events of the given action."""
    if command.seat not in game.to_act(state.game):
        raise NotYourTurn(f"seat {command.seat} owes no action now")
    try:
        action = msgspec.convert(command.action, game.Command, strict=True)
    except msgspec.ValidationError as error:
        raise RuleViolation(f"invalid action: {error}") from None
    if isinstance(action, Concede):
        raise RuleViolation("a seat out of time is played for, never conceded")
    played = game.decide_steps(state.game, command.seat, action, table_rng(state, seed))
    events: list[E | MatchEvent] = [SeatTimedOut(seat=command.seat), *played.events]
    return events, _recorded(game, events, [state.game, *played.states])


def time_out(game: Rulebook[S, Any, Any, Any, Any], state: Table[S], seat: int) -> TimeOut | None:
    """The time-out a seat out of time gets: the game's declared default (``on_time_out``)."""
    action = game.time_out_action(state.game, seat)
    return None if action is None else TimeOut(seat=seat, action=msgspec.to_builtins(action))


def _recorded(game: Game, events: list[Any], states: list[S]) -> list[S]:
    """The game states after each event, checked one for one against the events."""
    if len(states) != len(events):
        raise BrokenInvariant(f"{game.id} decided {len(events)} events but recorded "
                              f"{len(states)} states: decide each event with Steps.then")
    return states


def _advanced(game: Rulebook[S, Any, Any, Any, Any], state: Table[S], states: list[S]) -> Table[S]:
    """The table after a command's events, given the game state after each of them."""
    owing, since, version = state.owing, state.since, state.version
    for after in states:
        version += 1
        owing, since = owed(owing, since, game.to_act(after), version)
    return msgspec.structs.replace(state, game=states[-1] if states else state.game,
                                   version=version, owing=owing, since=since)


def _each(
    game: Rulebook[S, Any, Any, Any, Any], state: Table[S], states: list[S]
) -> list[MatchStateOf[S]]:
    """The table before a command's events and after each of them (``_advanced`` step by step)."""
    tables: list[MatchStateOf[S]] = [state]
    owing, since, version = state.owing, state.since, state.version
    for after in states:
        version += 1
        owing, since = owed(owing, since, game.to_act(after), version)
        tables.append(msgspec.structs.replace(state, game=after, version=version, owing=owing,
                                              since=since))
    return tables


def owed(
    owing: tuple[int, ...], since: tuple[int, ...], waiting: tuple[int, ...], version: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats owing after an event at ``version`` and since when: those still waited on keep
    their version, the others begin at this one."""
    if waiting == owing:
        return owing, since
    if not waiting or not owing:
        return waiting, (version,) * len(waiting)
    began = dict(zip(owing, since))
    return waiting, tuple(began.get(seat, version) for seat in waiting)


def _start(
    game: Rulebook[Any, Any, E, Any, Any], state: Lobby, seed: bytes
) -> list[E | MatchEvent]:
    """Start play: every seat must be taken; the game deals from the mixed seed."""
    seats = state.created.seats
    if len(state.names) < seats:
        raise WrongPhase(f"only {len(state.names)} of {seats} seats are taken")
    options = decode_options(game, state.created.options)
    return [MatchStarted(), *game.setup(options, state.names, table_rng(state, seed))]


def evolve(
    game: Rulebook[S, Any, E, Any, Any], state: MatchStateOf[S] | None, event: E | MatchEvent
) -> MatchStateOf[S]:
    """Record one event of the match stream (play first: nearly every event is the game's)."""
    if type(state) is Table:
        version = state.version + 1
        if type(event) is SeatTimedOut:
            return msgspec.structs.replace(state, version=version)
        # At the table every event but a time-out is the game's own (the stream's shape).
        after = game.evolve(state.game, cast("E", event))
        waiting = game.to_act(after)
        if waiting == state.owing:  # nobody's turn changed: the common case, kept cheap
            return msgspec.structs.replace(state, game=after, version=version)
        owing, since = owed(state.owing, state.since, waiting, version)
        return msgspec.structs.replace(state, game=after, version=version, owing=owing,
                                       since=since)
    match state, event:
        case None, MatchCreated():
            return Lobby(created=event)
        case Lobby(), SeatJoined():
            return msgspec.structs.replace(
                state,
                names=(*state.names, event.name),
                client_seeds=(*state.client_seeds, event.client_seed),
                bots=(*state.bots, None if event.bot is msgspec.UNSET else event.bot),
                players=(*state.players, None if event.player is msgspec.UNSET else event.player),
                version=state.version + 1,
            )
        case Lobby(), MatchStarted():
            return Table(
                created=state.created,
                names=state.names,
                client_seeds=state.client_seeds,
                game=game.initial,
                bots=state.bots,
                players=state.players,
                version=state.version + 1,
            )
    raise BrokenInvariant(f"cannot apply {type(event).__name__} to {type(state).__name__}")


def fold(
    game: Rulebook[S, Any, E, Any, Any],
    events: Sequence[E | MatchEvent],
    state: MatchStateOf[S] | None = None,
) -> MatchStateOf[S]:
    """The state after a list of events, from the beginning or from a given state."""
    for event in events:
        state = evolve(game, state, event)
    if state is None:
        raise BrokenInvariant("a match stream cannot be empty")
    return state


def dealt(game: Rulebook[S, Any, Any, Any, Any], state: MatchStateOf[S]) -> bool:
    """Whether the game has recorded its first event (false in the lobby and at the start)."""
    return isinstance(state, Table) and state.game != game.initial


def bot_of(state: MatchState, seat: int) -> str | None:
    """The bot playing a seat, or None for a person."""
    return state.bots[seat] if seat < len(state.bots) else None


def player_of(state: MatchState, seat: int) -> str | None:
    """The player id holding a seat, or None for an anonymous seat or a bot's."""
    return state.players[seat] if seat < len(state.players) else None


def rated(state: MatchState) -> bool:
    """Whether the match is rated (its players' ratings change with its result)."""
    return state.created.rated is True


def owing_since(state: MatchState) -> dict[int, int]:
    """Each seat the rules wait on, with the match version at which it began to owe its move."""
    return dict(zip(state.owing, state.since)) if isinstance(state, Table) else {}


def turn_seconds(state: MatchState) -> int | None:
    """The match's turn clock in seconds, or None when it has none."""
    seconds = state.created.turn_seconds
    return None if seconds is msgspec.UNSET else seconds


def outcome(game: Rulebook[S, Any, Any, Any, Any], state: MatchStateOf[S]) -> Outcome | None:
    """The finished match's outcome, or None while it is in the lobby or in play."""
    return game.outcome(state.game) if isinstance(state, Table) else None


def status(game: Rulebook[S, Any, Any, Any, Any], state: MatchStateOf[S]) -> MatchStatus:
    """'lobby', 'playing' or 'finished'."""
    if isinstance(state, Lobby):
        return "lobby"
    return "finished" if game.outcome(state.game) is not None else "playing"
