"""Hexes, a tiny test game that opens reaction windows; registered on import, so every test
session carries it and the conformance suite plays it (tests/conftest.py imports it).

Every seat still standing acts at once each round: hex another seat or rest. A hex opens a
reaction window for its target, which pauses everyone: the target throws a Salt or allows; after
a Salt the caster may counter with a Salt of its own, and so on while Salts last. The last Salt
decides: the target's cancels the hex, the caster's lets it land (one health lost). A seat out of
time allows in a window, and rests otherwise. Most health after the last round wins.
"""

from __future__ import annotations

import msgspec

from domain.core import reactions
from domain.core.decider import Concede, LogEntry, Outcome, Rulebook
from domain.core.errors import NotYourTurn, RuleViolation
from domain.core.reactions import Allow
from domain.core.rng import Rng
from domain.core.steps import Steps
from domain.registry import register


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How many rounds, and how many Salts each seat starts with."""

    rounds: int = 2
    salts: int = 1


class Hex(msgspec.Struct, tag="hex", frozen=True, kw_only=True):
    """Hex another seat standing."""

    target: int


class Rest(msgspec.Struct, tag="rest", frozen=True, kw_only=True):
    """Do nothing this round."""


class Salt(msgspec.Struct, tag="salt", frozen=True, kw_only=True):
    """Answer a window with a Salt: cancel what it waits on."""


Command = Hex | Rest | Salt | Allow | Concede
Answer = Salt | Allow


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """What a window waits on: a hex (``salt_by`` None) or a Salt thrown by a seat against it."""

    caster: int
    target: int
    salt_by: int | None = None


class CircleOpened(msgspec.Struct, tag="circle_opened", frozen=True, kw_only=True):
    """The circle forms."""

    names: tuple[str, ...]
    rounds: int
    salts: int


class RoundBegan(msgspec.Struct, tag="round_began", frozen=True, kw_only=True):
    """Every seat standing owes an action, all at once."""

    round: int
    seats: tuple[int, ...]


class Rested(msgspec.Struct, tag="rested", frozen=True, kw_only=True):
    """A seat rested."""

    seat: int


class HexCast(msgspec.Struct, tag="hex_cast", frozen=True, kw_only=True):
    """A seat hexed another: a window opens for the target."""

    seat: int
    target: int


class SaltThrown(msgspec.Struct, tag="salt_thrown", frozen=True, kw_only=True):
    """A seat answered with a Salt: a counter window opens for the other side."""

    seat: int


class Allowed(msgspec.Struct, tag="allowed", frozen=True, kw_only=True):
    """A seat allowed what the window waits on."""

    seat: int


class HexResolved(msgspec.Struct, tag="hex_resolved", frozen=True, kw_only=True):
    """The chain closed: the hex landed or was cancelled."""

    caster: int
    target: int
    landed: bool


class Conceded(msgspec.Struct, tag="hexes_conceded", frozen=True, kw_only=True):
    """A seat gave up: the circle closes."""

    seat: int


class CircleClosed(msgspec.Struct, tag="circle_closed", frozen=True, kw_only=True):
    """The game is over."""

    winners: tuple[int, ...]


Event = (CircleOpened | RoundBegan | Rested | HexCast | SaltThrown | Allowed | HexResolved
         | Conceded | CircleClosed)


class Unformed(msgspec.Struct, frozen=True, kw_only=True):
    """Before the circle forms."""


class Circle(msgspec.Struct, frozen=True, kw_only=True):
    """The game in play (or over, with its winners)."""

    names: tuple[str, ...]
    rounds: int
    health: tuple[int, ...]
    salts: tuple[int, ...]
    round: int = 0
    owing: tuple[int, ...] = ()
    windows: reactions.Reactions[Pending, Answer] = reactions.Reactions()
    winners: tuple[int, ...] | None = None


State = Unformed | Circle
UNFORMED = Unformed()
HEALTH = 2


class HexesView(msgspec.Struct, tag="test_hexes_view", frozen=True, kw_only=True):
    """Everything is public in Hexes."""

    you: int | None
    round: int
    health: tuple[int, ...]
    salts: tuple[int, ...]
    depth: int
    answering: tuple[int, ...]


def check_options(options: Options, seats: int, practice: bool) -> None:
    """At least one round."""
    if options.rounds < 1 or options.salts < 0:
        raise RuleViolation("rounds must be 1 or more and salts 0 or more")


def setup(options: Options, names: tuple[str, ...], rng: Rng) -> list[Event]:
    """Form the circle and begin the first round."""
    seats = tuple(range(len(names)))
    return [CircleOpened(names=names, rounds=options.rounds, salts=options.salts),
            RoundBegan(round=1, seats=seats)]


def to_act(state: State) -> tuple[int, ...]:
    """The window's answering seats while one is open, else the seats owing their action."""
    if not isinstance(state, Circle) or state.winners is not None:
        return ()
    return reactions.answering(state.windows) or state.owing


def legal_actions(state: State, seat: int) -> list[Command]:
    """Allow (and Salt, while you have one) in a window; else a hex on each other seat, or rest."""
    if seat not in to_act(state):
        return []
    assert isinstance(state, Circle)
    if reactions.answering(state.windows):
        return [Allow(), *([Salt()] if state.salts[seat] else [])]
    return [*(Hex(target=t) for t in standing(state) if t != seat), Rest()]


def on_time_out(state: State, seat: int) -> Command:
    """A seat out of time allows in a window, and rests otherwise."""
    assert isinstance(state, Circle)
    return reactions.time_out_answer(state.windows, seat) or Rest()


def standing(state: Circle) -> tuple[int, ...]:
    """The seats with health left."""
    return tuple(s for s, h in enumerate(state.health) if h > 0)


def decide_steps(state: State, seat: int, command: object, rng: Rng) -> Steps[State, Event]:
    """Check a command against the window (if any) and the round, and decide its events."""
    assert isinstance(state, Circle)
    steps: Steps[State, Event] = Steps(state, evolve)
    match command:
        case Concede():
            steps.then(Conceded(seat=seat))
            return steps
        case Salt() | Allow():
            reactions.check_answering(state.windows, seat)
            _answer(steps, seat, command)
        case Hex() | Rest():
            reactions.check_no_window(state.windows, seat)
            if seat not in state.owing:
                raise NotYourTurn("you have acted this round; wait for the others")
            _act(steps, seat, command)
    return steps


def _act(steps: Steps, seat: int, command: Hex | Rest) -> None:
    """A hex opens its target's window; a rest is done at once."""
    if isinstance(command, Rest):
        steps.then(Rested(seat=seat))
        _next(steps)
        return
    if command.target == seat or command.target not in standing(steps.state):
        raise RuleViolation("hex another seat that is still standing")
    steps.then(HexCast(seat=seat, target=command.target))


def _answer(steps: Steps, seat: int, answer: Salt | Allow) -> None:
    """A Salt counters (if the seat has one); an allow resolves the whole chain."""
    if isinstance(answer, Salt):
        if not steps.state.salts[seat]:
            raise RuleViolation("you have no Salt left")
        steps.then(SaltThrown(seat=seat))
        return
    steps.then(Allowed(seat=seat))
    bottom = steps.state.windows.windows[0].effect
    top = steps.state.windows.windows[-1].effect
    landed = top.salt_by != bottom.target
    steps.then(HexResolved(caster=bottom.caster, target=bottom.target, landed=landed))
    _next(steps)


def _next(steps: Steps) -> None:
    """When nobody owes this round: the next round, or the end."""
    state = steps.state
    if state.owing or state.winners is not None:
        return
    if state.round < state.rounds and len(standing(state)) > 1:
        steps.then(RoundBegan(round=state.round + 1, seats=standing(state)))
        return
    best = max(state.health)
    steps.then(CircleClosed(winners=tuple(s for s, h in enumerate(state.health) if h == best)))


def evolve(state: State, event: object) -> State:
    """Record one event."""
    if isinstance(event, CircleOpened):
        n = len(event.names)
        return Circle(names=event.names, rounds=event.rounds, health=(HEALTH,) * n,
                      salts=(event.salts,) * n)
    assert isinstance(state, Circle)
    replace = msgspec.structs.replace
    match event:
        case RoundBegan():
            return replace(state, round=event.round, owing=event.seats)
        case Rested():
            return replace(state, owing=_without(state.owing, event.seat))
        case HexCast():
            pending = Pending(caster=event.seat, target=event.target)
            return replace(state, windows=reactions.opened(
                state.windows, pending, event.seat, (event.target,), Allow()))
        case SaltThrown():
            below = state.windows.windows[-1].effect
            other = below.caster if event.seat == below.target else below.target
            counter = Pending(caster=below.caster, target=below.target, salt_by=event.seat)
            salts = _changed(state.salts, event.seat, -1)
            return replace(state, salts=salts, windows=reactions.countered(
                state.windows, event.seat, Salt(), counter, (other,)))
        case Allowed():
            return replace(state, windows=reactions.answered(state.windows, event.seat, Allow()))
        case HexResolved():
            health = _changed(state.health, event.target, -1) if event.landed else state.health
            owing = tuple(s for s in _without(state.owing, event.caster) if health[s] > 0)
            return replace(state, health=health, owing=owing, windows=reactions.Reactions())
        case Conceded():
            others = tuple(s for s in range(len(state.names)) if s != event.seat)
            return replace(state, winners=others, owing=(), windows=reactions.Reactions())
        case CircleClosed():
            return replace(state, winners=event.winners, owing=())
    return state


def _without(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """The seats but one."""
    return tuple(s for s in seats if s != seat)


def _changed(values: tuple[int, ...], seat: int, by: int) -> tuple[int, ...]:
    """One seat's value changed, never below 0."""
    return tuple(max(0, v + by) if s == seat else v for s, v in enumerate(values))


def observe(state: State, seat: int | None) -> HexesView:
    """The whole circle (nothing is hidden)."""
    if not isinstance(state, Circle):
        return HexesView(you=seat, round=0, health=(), salts=(), depth=0, answering=())
    return HexesView(you=seat, round=state.round, health=state.health, salts=state.salts,
                     depth=reactions.depth(state.windows),
                     answering=reactions.answering(state.windows))


def log_entries(before: State, event: object) -> list[LogEntry]:
    """One public line per event, its tag."""
    return [LogEntry(text=type(event).__name__)]


def secrets(state: State, seat: int | None) -> frozenset[str]:
    """Nothing in the circle is hidden from anyone."""
    return frozenset()


def outcome(state: State) -> Outcome | None:
    """Winners share first place; the rest by health."""
    if not isinstance(state, Circle) or state.winners is None:
        return None
    scores = state.health
    placements = tuple(1 if s in state.winners else 1 + sum(h > scores[s] for h in scores)
                       for s in range(len(scores)))
    return Outcome(winners=state.winners, scores=scores, placements=placements)


GAME: Rulebook[State, Command, Event, HexesView, Command] = Rulebook(
    id="test-hexes", title="Hexes", rules_version="1", min_seats=2, max_seats=4,
    Options=Options, Command=Command, Event=Event, View=HexesView, initial=UNFORMED,
    check_options=check_options, setup=setup, decide_steps=decide_steps, evolve=evolve,
    legal_actions=legal_actions, to_act=to_act, observe=observe, log_entries=log_entries,
    outcome=outcome, on_time_out=on_time_out, secrets=secrets,
)

register(GAME)
