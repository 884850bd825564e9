"""A game as plain functions: the one object a game package registers (see decider.Game).

Each game fills a Rulebook with its own functions instead of writing an adapter class, so every
game is driven through exactly the same shape.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.core.bots import Choose
from domain.core.decider import LogEntry, Outcome
from domain.core.rng import Rng
from domain.core.steps import Steps


@dataclass(frozen=True, eq=False)
class Rulebook:
    """One game, one rules version: its types and its Decider functions."""

    id: str
    title: str
    rules_version: str
    min_seats: int
    max_seats: int
    Options: type[msgspec.Struct]
    Command: Any
    Event: Any
    View: type[msgspec.Struct]
    check_options: Callable[[Any, int, bool], None]
    setup: Callable[[Any, tuple[str, ...], Rng], list[Any]]
    decide_steps: Callable[[Any, int, Any, Rng], Steps]
    evolve: Callable[[Any | None, Any], Any]
    legal_actions: Callable[[Any, int], list[Any]]
    to_act: Callable[[Any], tuple[int, ...]]
    observe: Callable[[Any, int | None], Any]
    log_entries: Callable[[Any | None, Any], list[LogEntry]]
    outcome: Callable[[Any], Outcome | None]
    bots: Mapping[str, Choose] = field(default_factory=dict)

    def decide(self, state: Any, seat: int, command: Any, rng: Rng) -> list[Any]:
        """The events a seat's command causes (``decide_steps`` without the state they lead to)."""
        return self.decide_steps(state, seat, command, rng).events
