"""Deciding step by step: each rule sees the state the events decided so far lead to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

# The game's state: the union of its phases, the state before the deal included. Covariant:
# steps decided from a dealt table (``Steps[State, Event]``) are steps of the game's whole state
# union too, as the Rulebook's ``decide_steps`` returns them; only ``then`` changes the state.
S = TypeVar("S", covariant=True)
E = TypeVar("E")  # the game's event union


class Steps(Generic[S, E]):
    """Events decided so far and the state they lead to, through a game's own evolve."""

    def __init__(self, state: S, evolve: Callable[[S, E], S]) -> None:
        """Start from a state (the game's initial state before the first event)."""
        self.state: S = state
        self.events: list[E] = []
        self.states: list[S] = []  # the state after each event, for the match's per-seat clocks
        self._evolve = evolve

    def then(self, event: E) -> None:
        """Decide one more event and record it."""
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        self.states.append(self.state)
