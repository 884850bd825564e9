"""Helpers for the Wick & Ember tests: scripted practice deals and a table to play them on."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain.core.decider import Concede, LogEntry
from domain.core.errors import RuleViolation
from domain.core.rng import Rng
from domain.wick_ember import GAME
from domain.wick_ember.cards import NAMES, composition, name_of
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.events import Event
from domain.wick_ember.observer import WickEmberView
from domain.wick_ember.options import Options
from domain.wick_ember.state import State

PLAYERS = ("Ash", "Bryn", "Cato", "Dell", "Esme", "Fenn")
RNG = Rng(b"wick and ember tests")


def stacked(
    set_aside: str,
    hands: tuple[str, ...],
    draws: tuple[str, ...] = (),
    face_up: tuple[str, ...] = (),
    deck: str = "standard",
) -> list[str]:
    """A round's full deck from the top: the named cards, then the rest of the deck in rank order.

    ``hands`` are dealt from the opener clockwise; ``draws`` are the top of the draw pile.
    """
    top = [set_aside, *face_up, *hands, *draws]
    rest = composition(deck)  # type: ignore[arg-type]
    rest.subtract(Counter(top))
    assert all(count >= 0 for count in rest.values()), f"more copies than the deck has: {rest}"
    return top + [name for name in NAMES for _ in range(rest[name])]


def card_names(cards: tuple[int | None, ...]) -> list[str | None]:
    """Card identities from events, as names (None stays None)."""
    return [None if card is None else name_of(card) for card in cards]


def fold(events: list[Event], state: State | None = None) -> State:
    """The state after some events."""
    for event in events:
        state = GAME.evolve(state, event)
    assert state is not None
    return state


class Table:
    """A practice table of Wick & Ember, played command by command."""

    def __init__(
        self, seats: int = 2, rounds: tuple[list[str], ...] = (), opener: int = 0, **options: Any
    ):
        """Open the table with a scripted deal and run setup."""
        self.options = Options(deal=[list(r) for r in rounds], opener=opener, **options)
        GAME.check_options(self.options, seats, True)
        self.history: list[tuple[State | None, Event]] = []
        self.state: Any = None
        self._record(GAME.setup(self.options, PLAYERS[:seats], RNG))

    def _record(self, events: list[Event]) -> list[Event]:
        """Fold new events in, keeping the state before each."""
        for event in events:
            self.history.append((self.state, event))
            self.state = GAME.evolve(self.state, event)
        return events

    @property
    def events(self) -> list[Event]:
        """Every event so far."""
        return [event for _, event in self.history]

    def send(self, seat: int, command: Any) -> list[Event]:
        """A seat's command, decided and recorded."""
        return self._record(GAME.decide(self.state, seat, command, RNG))

    def play(
        self, seat: int, card: str, target: int | None = None, guess: str | None = None
    ) -> list[Event]:
        """A seat plays a card."""
        return self.send(seat, PlayCard(card=card, target=target, guess=guess))

    def concede(self, seat: int) -> list[Event]:
        """A seat concedes."""
        return self.send(seat, Concede())

    def hand(self, seat: int) -> list[str]:
        """A seat's hidden cards by name, as its own view shows them."""
        return list(self.view(seat).hand)

    def view(self, seat: int | None) -> WickEmberView:
        """What a seat (or a spectator) sees now."""
        return GAME.observe(self.state, seat)

    def lines(self, seat: int | None = None, since: int = 0) -> list[str]:
        """Log lines a seat may read (public ones for None), from event number ``since`` on."""
        entries: list[LogEntry] = []
        for before, event in self.history[since:]:
            entries += GAME.log_entries(before, event)
        return [e.text for e in entries if e.seat is None or e.seat == seat]

    def private_lines(self, seat: int) -> list[str]:
        """The log lines addressed to one seat only."""
        entries = [e for before, event in self.history for e in GAME.log_entries(before, event)]
        return [e.text for e in entries if e.seat == seat]

    def refuses(self, seat: int, command: Any, error: type[RuleViolation] = RuleViolation) -> str:
        """The message of a refused command; the table is left exactly as it was."""
        before, count = self.state, len(self.history)
        with pytest.raises(error) as caught:
            self.send(seat, command)
        assert self.state is before and len(self.history) == count
        return caught.value.message

    def refuses_play(
        self, seat: int, card: str, target: int | None = None, guess: str | None = None
    ) -> str:
        """The message of a refused play."""
        return self.refuses(seat, PlayCard(card=card, target=target, guess=guess))

    def legal(self, seat: int) -> list[PlayCard]:
        """The plays the seat may send now."""
        return GAME.legal_actions(self.state, seat)

    def last(self, kind: type) -> Any:
        """The latest event of a kind."""
        return next(event for event in reversed(self.events) if isinstance(event, kind))

    def count(self, kind: type) -> int:
        """How many events of a kind so far."""
        return sum(isinstance(event, kind) for event in self.events)

    def after(self, kind: type) -> Any:
        """The state right after the latest event of a kind."""
        states = [
            after
            for (_, event), after in zip(self.history, self._afters())
            if isinstance(event, kind)
        ]
        return states[-1]

    def _afters(self) -> list[Any]:
        """The state after each event of the history."""
        return [before for before, _ in self.history[1:]] + [self.state]
