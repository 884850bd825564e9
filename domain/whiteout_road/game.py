"""Whiteout Road as one object the match service drives (the Game protocol of domain.core)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.decider import LogEntry, Outcome
from domain.core.rng import Rng
from domain.whiteout_road import commands, events, log, nights, observer, options, outcome, rules
from domain.whiteout_road.evolve import evolve
from domain.whiteout_road.legal import legal_actions, to_act
from domain.whiteout_road.state import State


class WhiteoutRoad:
    """The rules of Whiteout Road, rules version 1."""

    id = "whiteout-road"
    title = "Whiteout Road"
    rules_version = "1"
    min_seats = options.MIN_SEATS
    max_seats = options.MAX_SEATS
    Options: type[msgspec.Struct] = options.Options
    Command: Any = commands.Command
    Event: Any = events.Event
    View: type[msgspec.Struct] = observer.WhiteoutView

    def check_options(self, opts: options.Options, seats: int, practice: bool) -> None:
        """R1 to R3 and the practice deal: raise RuleViolation when the options do not fit."""
        options.check_options(opts, seats, practice)

    def setup(self, opts: options.Options, names: tuple[str, ...], rng: Rng) -> list[Any]:
        """The table, night 1's deal and its first Fate flip."""
        return nights.open_road(opts, tuple(names), rng)

    def decide(self, state: State, seat: int, command: Any, rng: Rng) -> list[Any]:
        """The events a seat's command causes, or a RuleViolation."""
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: State | None, event: Any) -> State:
        """Record one event."""
        return evolve(state, event)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        """Every commitment the seat may send now (Concede is always allowed and not listed)."""
        return legal_actions(state, seat)

    def to_act(self, state: State) -> tuple[int, ...]:
        """Every seat that still owes a card."""
        return to_act(state)

    def observe(self, state: State, seat: int | None) -> observer.WhiteoutView:
        """What a seat (or a spectator, for None) may see."""
        return observer.observe(state, seat)

    def log_entries(self, before: State | None, event: Any) -> list[LogEntry]:
        """The public and private log lines of one event."""
        return log.log_entries(before, event)

    def outcome(self, state: State) -> Outcome | None:
        """The result once the match is over."""
        return outcome.outcome(state)


GAME = WhiteoutRoad()
