"""The shape every game takes: a Decider over frozen msgspec Structs, declared once.

A game package fills one ``Rulebook`` per rules version with its own plain functions and
registers it (domain.registry), so every game is driven through exactly the same shape and the
contract is checked at registration (domain.core.contract). ``decide`` validates and returns new
events or raises ``RuleViolation``; ``evolve`` only records; the observer (``observe``,
``log_entries``) is the only way state leaves the domain.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias, TypeVar

import msgspec

from domain.core.rng import Rng, Stream
from domain.core.steps import Steps

S = TypeVar("S")  # the game's state: the union of its phases, the state before the deal included
C = TypeVar("C")  # the game's command union (Concede among them)
E = TypeVar("E")  # the game's event union
V = TypeVar("V")  # the game's view: what a seat (or a spectator) may see
# The game's legal actions: its commands, or fewer (conceding is always open, so Wick & Ember,
# Whiteout Road and Tally never list Concede and their actions are a narrower type).
A = TypeVar("A")

# A bot: ``choose(view, actions, stream) -> action`` (domain.core.bots).
Choose: TypeAlias = Callable[[V, list[A], Stream], A]


class LogEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a match log: public when ``seat`` is None, else private to that seat."""

    text: str
    seat: int | None = None


class CardText(msgspec.Struct, frozen=True, kw_only=True):
    """One card (or rank) as a player reads it: how views and commands write it, its name, and
    what it does, in the game's rules doc's words (served with the game: GET /games/{game})."""

    code: str
    name: str
    text: str


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a finished match ended, seat by seat (indexes are seat numbers)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    placements: tuple[int, ...]


class Concede(msgspec.Struct, tag="concede", frozen=True, kw_only=True):
    """A seat gives up the match; every game's command union includes it."""


def plain_label(_state: object, _seat: int, command: object) -> str:
    """A command as a line of text from its own fields alone: 'commit: card 7C, play feed'."""
    fields = msgspec.to_builtins(command)
    kind = fields.pop("type", type(command).__name__)
    shown = ", ".join(f"{name} {value}" for name, value in fields.items() if value is not None)
    return f"{kind}: {shown}" if shown else str(kind)


@dataclass(frozen=True, eq=False)
class Rulebook(Generic[S, C, E, V, A]):
    """One game under one rules version: its types and its Decider functions.

    Generic over the game's state ``S`` (every phase, the initial state included), command
    ``C``, event ``E``, view ``V`` and legal action ``A`` (``C`` itself, or the part of it that
    ``legal_actions`` lists): each game spells them out
    (``GAME: Rulebook[State | Unlit, Command, Event, WickEmberView, PlayCard]``) so that its
    functions are checked against this contract; code that serves any game uses ``AnyRulebook``.

    - ``initial``: the game's state before its first event (a value of its own, never None);
    - ``setup(options, names, rng)``: the opening events, the deal included;
    - ``decide_steps(state, seat, command, rng)``: the events a command causes, with the state
      they lead to (raises RuleViolation);
    - ``evolve(state, event)``: record one event; never validates, never raises on a stored history;
    - ``legal_actions(state, seat)``: every complete command the seat may send now, sorted;
    - ``to_act(state)``: the seats the rules are waiting on (empty when the match is over);
    - ``observe(state, seat | None)``: what a seat (None: a spectator) may see;
    - ``observe_over(state, public, seat)``: the seat's view made from ``public``, the
      spectator's view of the same state, where most of a view is alike for every viewer
      (Deathwick's twenty players): a feed shapes every seat's update of one change, so the
      shared part is built once; it must equal ``observe(state, seat)`` (None: ``observe``).
    - ``log_entries(before, event)``: the lines an event gives, judged against the state before;
    - ``outcome(state)``: the result once the match is over, else None;
    - ``secrets(state, seat | None)``: the texts of every hidden value that seat (None: a
      spectator) may not see now, as views and log lines would write them; the conformance
      suite's leak check (docs/conformance.md); registration refuses a game that leaves it None.
    - ``label(state, seat, command)``: a short line naming one of the seat's legal commands for a
      person ("Play Gale on Bryn"), from what that seat may see (default: ``plain_label``).
    - ``may_act(state)``: the seats that may send a command now: every seat of ``to_act`` and,
      in a game whose rules let seats act out of turn (Ember's abilities at any time), those
      too; their clocks do not run and no bot is asked to act for them (None: ``to_act``).
    - ``cards``: what each card does, for a player reading the table (a game whose cards carry
      abilities: Deathwick's Grimoire); empty where a card is only its number and suit.
    - ``offer(state, seat)``: the seat's legal actions as a client is offered them: complete
      commands, and a ``Template`` (domain.core.templates) where the choice is a set of cards
      whose combinations would be many (Ember's discard and payments); None: ``legal_actions``.
    - ``on_time_out(state, seat)``: the command played for a seat whose turn clock ran out, one
      of its legal actions (the game's declared default: the lowest card, "allow" in a reaction
      window...); None: the seat's first legal action (see ``time_out_action``).
    """

    id: str
    title: str
    rules_version: str
    min_seats: int
    max_seats: int
    Options: type[msgspec.Struct]
    # The Command and Event unions as type forms (decoders are built from them): typing has no
    # type for "a union type" (PEP 747's TypeForm is not in Python 3.11), hence Any.
    Command: Any
    Event: Any
    View: type[V]
    initial: S
    # The options are the game's own ``Options`` Struct; a sixth type parameter only for them
    # would ask every caller to spell it, so the contract takes them as Any.
    check_options: Callable[[Any, int, bool], None]
    setup: Callable[[Any, tuple[str, ...], Rng], list[E]]
    decide_steps: Callable[[S, int, C, Rng], Steps[S, E]]
    evolve: Callable[[S, E], S]
    legal_actions: Callable[[S, int], list[A]]
    to_act: Callable[[S], tuple[int, ...]]
    observe: Callable[[S, int | None], V]
    log_entries: Callable[[S, E], list[LogEntry]]
    outcome: Callable[[S], Outcome | None]
    bots: Mapping[str, Choose[V, A]] = field(default_factory=dict)
    secrets: Callable[[S, int | None], frozenset[str]] | None = None
    label: Callable[[S, int, C], str] = plain_label
    on_time_out: Callable[[S, int], A | None] | None = None
    may_act: Callable[[S], tuple[int, ...]] | None = None
    cards: tuple[CardText, ...] = ()
    offer: Callable[[S, int], list[Any]] | None = None
    observe_over: Callable[[S, V, int], V] | None = None

    def decide(self, state: S, seat: int, command: C, rng: Rng) -> list[E]:
        """The events a seat's command causes (``decide_steps`` without the state they lead to)."""
        return self.decide_steps(state, seat, command, rng).events

    def offered(self, state: S, seat: int) -> list[Any]:
        """The seat's legal actions as a client is offered them (``offer``, else
        ``legal_actions``): complete commands and templates."""
        return self.legal_actions(state, seat) if self.offer is None else self.offer(state, seat)

    def observed(self, state: S, seat: int, public: V | None) -> V:
        """The seat's view, made from ``public`` (the spectator's view of ``state``) when the game
        can (``observe_over``) and it is given, else observed afresh."""
        if public is None or self.observe_over is None:
            return self.observe(state, seat)
        return self.observe_over(state, public, seat)

    def acting(self, state: S) -> tuple[int, ...]:
        """The seats that may send a command now (``may_act``, else the seats in ``to_act``)."""
        return self.to_act(state) if self.may_act is None else self.may_act(state)

    def time_out_action(self, state: S, seat: int) -> A | None:
        """What a seat out of time plays: the game's declared default, else its first legal action
        (None when it has none)."""
        if self.on_time_out is not None:
            return self.on_time_out(state, seat)
        actions = self.legal_actions(state, seat)
        return actions[0] if actions else None


# Any game under any rules version: what the registry, the match, the codec, the projections and
# the service hold, since they serve every game alike.
AnyRulebook: TypeAlias = Rulebook[Any, Any, Any, Any, Any]
Game: TypeAlias = AnyRulebook  # what a match is played with: one game under one rules version
