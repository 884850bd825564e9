"""The shape every game takes: a Decider over frozen msgspec Structs.

A game is a plain object (usually a module-level instance) with these members.  ``decide``
validates and returns new events or raises ``RuleViolation``; ``evolve`` only records; the
observer (``observe``, ``log_entries``) is the only way state leaves the domain.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import msgspec

from domain.core.rng import Rng
from domain.core.steps import Steps


class LogEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a match log: public when ``seat`` is None, else private to that seat."""

    text: str
    seat: int | None = None


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a finished match ended, seat by seat (indexes are seat numbers)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    placements: tuple[int, ...]


class Concede(msgspec.Struct, tag="concede", frozen=True, kw_only=True):
    """A seat gives up the match; every game's command union includes it."""


class Game(Protocol):
    """What a game package registers; see architecture.md, 'Games are Deciders'."""

    id: str
    title: str
    rules_version: str
    min_seats: int
    max_seats: int
    Options: type[msgspec.Struct]
    Command: Any
    Event: Any
    View: type[msgspec.Struct]
    bots: Mapping[str, Any]  # the game's own bots by name (the random bot is every game's)

    def check_options(self, options: Any, seats: int, practice: bool) -> None:
        """Raise RuleViolation when the options do not fit this game at this seat count."""

    def setup(self, options: Any, names: tuple[str, ...], rng: Rng) -> list[Any]:
        """The opening events (the deal included); the first one is evolved from None."""

    def decide(self, state: Any, seat: int, command: Any, rng: Rng) -> list[Any]:
        """Validate a seat's command against the rules and return the events it causes."""

    def decide_steps(self, state: Any, seat: int, command: Any, rng: Rng) -> Steps:
        """What ``decide`` returns, with the state those events lead to (no second fold)."""

    def evolve(self, state: Any | None, event: Any) -> Any:
        """Record one event; never validates, never raises on a stored history."""

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        """Every complete command the seat may send now, sorted and deterministic."""

    def to_act(self, state: Any) -> tuple[int, ...]:
        """The seats the rules are waiting on now (empty when the match is over)."""

    def observe(self, state: Any, seat: int | None) -> Any:
        """What one seat (or a spectator, for None) may see of the state."""

    def log_entries(self, before: Any | None, event: Any) -> list[LogEntry]:
        """The log lines an event gives, judged against the state just before it."""

    def outcome(self, state: Any) -> Outcome | None:
        """The result once the match is over, else None."""
