"""What every game's domain tests share: a practice table played command by command through the
game's Rulebook, and whole matches driven through the match wrapper (domain.core.match).

Each game's support module subclasses ``PracticeTable`` with its options, scripted deals and
the shorthand its rules want (a card played, a commitment); everything here is the same for
every game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from domain.core import match
from domain.core.decider import Concede, LogEntry, Rulebook
from domain.core.errors import RuleViolation
from domain.core.match import JoinSeat, MatchCreated, StartMatch
from domain.core.rng import Rng


class PracticeTable:
    """A practice table of one game: its commands decided and folded, the state before each event
    kept."""

    def __init__(self, game: Rulebook, rng: Rng, options: Any, names: Sequence[str]) -> None:
        """Check the options for this many seats and run the game's setup."""
        game.check_options(options, len(names), True)
        self.game, self.rng, self.options = game, rng, options
        self.history: list[tuple[Any, Any]] = []
        self.state: Any = None
        self._record(game.setup(options, tuple(names), rng))

    def _record(self, events: list[Any]) -> list[Any]:
        """Fold new events in, keeping the state before each."""
        for event in events:
            self.history.append((self.state, event))
            self.state = self.game.evolve(self.state, event)
        return events

    @property
    def events(self) -> list[Any]:
        """Every event so far."""
        return [event for _, event in self.history]

    def send(self, seat: int, command: Any) -> list[Any]:
        """A seat's command, decided and recorded."""
        return self._record(self.game.decide(self.state, seat, command, self.rng))

    def concede(self, seat: int) -> list[Any]:
        """A seat concedes."""
        return self.send(seat, Concede())

    def view(self, seat: int | None) -> Any:
        """What a seat (or a spectator) sees now."""
        return self.game.observe(self.state, seat)

    def legal(self, seat: int) -> list[Any]:
        """The commands the seat may send now."""
        return self.game.legal_actions(self.state, seat)

    def lines(self, seat: int | None = None, since: int = 0) -> list[str]:
        """Log lines a seat may read (public ones for None), from event number ``since`` on."""
        entries: list[LogEntry] = []
        for before, event in self.history[since:]:
            entries += self.game.log_entries(before, event)
        return [e.text for e in entries if e.seat is None or e.seat == seat]

    def private_lines(self, seat: int) -> list[str]:
        """The log lines addressed to one seat only."""
        entries = [e for before, event in self.history
                   for e in self.game.log_entries(before, event)]
        return [e.text for e in entries if e.seat == seat]

    def refuses(self, seat: int, command: Any, error: type[RuleViolation] = RuleViolation) -> str:
        """The message of a refused command; the table is left exactly as it was."""
        before, count = self.state, len(self.history)
        with pytest.raises(error) as caught:
            self.send(seat, command)
        assert self.state is before and len(self.history) == count
        return caught.value.message

    def of(self, kind: type) -> list[Any]:
        """Every event of a kind so far."""
        return [event for event in self.events if isinstance(event, kind)]

    def last(self, kind: type) -> Any:
        """The latest event of a kind."""
        return self.of(kind)[-1]

    def count(self, kind: type) -> int:
        """How many events of a kind so far."""
        return len(self.of(kind))

    def after(self, kind: type, index: int = -1) -> Any:
        """The state right after the ``index``-th event of a kind (the latest by default)."""
        afters = [before for before, _ in self.history[1:]] + [self.state]
        found = [after for (_, event), after in zip(self.history, afters)
                 if isinstance(event, kind)]
        return found[index]


def created(game: Rulebook, seats: int, options: dict[str, Any],
            practice: bool = False) -> MatchCreated:
    """A new match's first event, through the wrapper's checks."""
    return match.open_match(game, seats=seats, options=options, practice=practice,
                            tournament=None, label=None, seed_commitment="commitment")


def seated(game: Rulebook, names: Sequence[str], options: dict[str, Any], seed: bytes,
           practice: bool = False, seeds: Sequence[str | None] = ()) -> list[Any]:
    """The events of a match whose seats are taken by ``names`` (with client ``seeds``, if any)
    and whose play has started."""
    events: list[Any] = [created(game, len(names), options, practice)]
    for index, name in enumerate(names):
        join = JoinSeat(name=name, client_seed=seeds[index] if index < len(seeds) else None)
        events += match.decide(game, match.fold(game, events), None, join, seed)
    return events + match.decide(game, match.fold(game, events), None, StartMatch(), seed)


def play_out(game: Rulebook, events: list[Any], chooser: random.Random,
             seed: bytes) -> list[Any]:
    """Random legal commands through the wrapper, from a random seat of those owing one, until
    the match is over."""
    state = match.fold(game, events)
    while match.status(game, state) == "playing":
        seat = chooser.choice(game.to_act(state.game))
        command = chooser.choice(game.legal_actions(state.game, seat))
        new = match.decide(game, state, seat, command, seed)
        state = match.fold(game, new, state)
        events = events + new
    return events
