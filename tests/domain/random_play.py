"""Random legal play of any game, straight through its Rulebook: seeded, bounded, reproducible.

The one loop the games' random matches (property and leak tests) and the Whiteout Road
burial-mark simulation share: fold the events so far, stop at the game's outcome, else ask
``next_command`` for a seat and a command, decide it with the match's generator, and go on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from domain.core.decider import Game
from domain.core.rng import Rng

NextCommand = Callable[[Any], tuple[int, Any]]


class Batch(NamedTuple):
    """One command and what it led to; the opening has no state before, seat or command."""

    before: Any
    seat: int | None
    command: Any
    events: list[Any]
    states: list[Any]  # the state after each event, in order

    def steps(self) -> Iterator[tuple[Any, Any, Any]]:
        """(state before, event, state after) for each event of the batch."""
        before = self.before
        for event, after in zip(self.events, self.states, strict=True):
            yield before, event, after
            before = after


def random_play(
    game: Game, opening: list[Any], rng: Rng, next_command: NextCommand, max_commands: int
) -> Iterator[Batch]:
    """Each batch of a match, from its opening events to its outcome (at most ``max_commands``)."""
    state, seat, command, events = None, None, None, opening
    for _ in range(max_commands + 1):
        before, states = state, []
        for event in events:
            state = game.evolve(state, event)
            states.append(state)
        yield Batch(before, seat, command, events, states)
        if game.outcome(state) is not None:
            return
        seat, command = next_command(state)
        events = game.decide(state, seat, command, rng)
    raise AssertionError(f"the match did not end within {max_commands} commands")


def any_legal(game: Game, chooser: random.Random) -> NextCommand:
    """A seat the rules wait on, chosen at random, and one of its legal actions at random."""

    def choose(state: Any) -> tuple[int, Any]:
        seat = chooser.choice(game.to_act(state))
        return seat, chooser.choice(game.legal_actions(state, seat))

    return choose


def event_steps(batches: Iterator[Batch]) -> Iterator[tuple[Any, Any, Any]]:
    """(state before, event, state after) for every event of a match."""
    for batch in batches:
        yield from batch.steps()
