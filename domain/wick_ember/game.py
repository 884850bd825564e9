"""Wick & Ember as one object the match service drives (the Game protocol of domain.core)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.decider import LogEntry, Outcome
from domain.core.rng import Rng
from domain.wick_ember import commands, events, log, observer, options, outcome, rounds, rules
from domain.wick_ember.evolve import evolve
from domain.wick_ember.legal import legal_actions, to_act
from domain.wick_ember.state import State


class WickEmber:
    """The rules of Wick & Ember, rules version 1."""

    id = "wick-and-ember"
    title = "Wick & Ember"
    rules_version = "1"
    min_seats = options.MIN_SEATS
    max_seats = options.MAX_SEATS
    Options: type[msgspec.Struct] = options.Options
    Command: Any = commands.Command
    Event: Any = events.Event
    View: type[msgspec.Struct] = observer.WickEmberView

    def check_options(self, opts: options.Options, seats: int, practice: bool) -> None:
        """W1, W2 and the practice script: raise RuleViolation when the options do not fit."""
        options.check_options(opts, seats, practice)

    def setup(self, opts: options.Options, names: tuple[str, ...], rng: Rng) -> list[Any]:
        """The table, round 1's deal and the opener's first draw."""
        return rounds.open_night(opts, tuple(names), rng)

    def decide(self, state: State, seat: int, command: Any, rng: Rng) -> list[Any]:
        """The events a seat's command causes, or a RuleViolation."""
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: State | None, event: Any) -> State:
        """Record one event."""
        return evolve(state, event)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        """Every play the seat may send now (Concede is always allowed and not listed)."""
        return legal_actions(state, seat)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seat whose turn it is."""
        return to_act(state)

    def observe(self, state: State, seat: int | None) -> observer.WickEmberView:
        """What a seat (or a spectator, for None) may see."""
        return observer.observe(state, seat)

    def log_entries(self, before: State | None, event: Any) -> list[LogEntry]:
        """The public and private log lines of one event."""
        return log.log_entries(before, event)

    def outcome(self, state: State) -> Outcome | None:
        """The result once the match is over."""
        return outcome.outcome(state)


GAME = WickEmber()
