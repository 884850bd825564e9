"""Deciding step by step: each rule sees the state the events decided so far lead to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Steps:
    """Events decided so far and the state they lead to, through a game's own evolve."""

    def __init__(self, state: Any | None, evolve: Callable[[Any | None, Any], Any]) -> None:
        """Start from a state (None before the first event)."""
        self.state: Any = state
        self.events: list[Any] = []
        self.states: list[Any] = []  # the state after each event, for the match's per-seat clocks
        self._evolve = evolve

    def then(self, event: Any) -> None:
        """Decide one more event and record it."""
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        self.states.append(self.state)
