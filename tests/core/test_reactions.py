"""Reaction windows (domain.core.reactions) and per-seat owing, shown with the test game Hexes."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from domain.core import match, reactions
from domain.core.decider import Concede
from domain.core.errors import NotYourTurn, RuleViolation
from domain.core.reactions import Allow
from tests.core import hexes
from tests.core.hexes import Hex, Rest, Salt

GAME = hexes.GAME
SEED = hashlib.sha256(b"hexes").digest()


class Played:
    """A match of Hexes driven through domain.core.match, command by command."""

    def __init__(self, seats: int = 3, **options: Any) -> None:
        created = match.open_match(GAME, seats=seats, options=options, practice=False,
                                   tournament=None, label=None, seed_commitment="c0ffee")
        self.state = match.evolve(GAME, None, created)
        for n in range(seats):
            self.send(None, match.JoinSeat(name=f"Seat {n}"))
        self.send(None, match.StartMatch())

    def send(self, seat: int | None, command: Any) -> list[Any]:
        """Decide and apply one command; its events."""
        events, self.state = match.decide_and_evolve(GAME, self.state, seat, command, SEED)
        return events

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats the rules wait on."""
        return GAME.to_act(self.state.game)


def test_given_a_round_then_every_seat_acts_at_once_from_the_same_version():
    """Given a fresh round of three, then all three owe, each since the round began."""
    table = Played()
    assert table.to_act == (0, 1, 2)
    since = match.owing_since(table.state)
    assert set(since) == {0, 1, 2} and len(set(since.values())) == 1


def test_given_a_hex_then_only_its_target_may_answer_and_every_other_command_waits():
    """Given seat 0 hexes seat 1, then seat 1 alone owes; seat 2's rest and seat 0's answer are
    refused with a message naming the window's seat, and nothing changes."""
    table = Played()
    table.send(0, Hex(target=1))
    before = table.state
    assert table.to_act == (1,)
    with pytest.raises(NotYourTurn, match="waits until seat 1 answers"):
        table.send(2, Rest())
    with pytest.raises(NotYourTurn, match="seat 0 may not answer"):
        table.send(0, Allow())
    assert table.state == before
    assert GAME.legal_actions(table.state.game, 1) == [Allow(), Salt()]
    assert GAME.legal_actions(table.state.game, 2) == []


def test_given_counters_to_any_depth_then_the_last_salt_decides():
    """Given a hex, the target's Salt, the caster's counter-Salt and the target's third Salt,
    then the windows nest to depth four, and the target's last Salt cancels the hex."""
    table = Played(seats=2, salts=2)
    table.send(0, Hex(target=1))
    for seat, depth in ((1, 2), (0, 3), (1, 4)):
        table.send(seat, Salt())
        assert reactions.depth(table.state.game.windows) == depth
    assert table.to_act == (0,)
    assert GAME.legal_actions(table.state.game, 1) == []
    assert table.state.game.salts == (1, 0)
    events = table.send(0, Allow())
    assert hexes.HexResolved(caster=0, target=1, landed=False) in events
    assert table.state.game.health == (2, 2)


def test_given_a_counter_salt_answered_by_allow_then_the_hex_lands():
    """Given a hex, a Salt and a counter-Salt, when the target allows, then the hex lands."""
    table = Played(seats=2, salts=1)
    table.send(0, Hex(target=1))
    table.send(1, Salt())
    table.send(0, Salt())
    table.send(1, Allow())
    assert table.state.game.health == (2, 1)
    assert reactions.depth(table.state.game.windows) == 0


def test_given_a_window_that_paused_the_others_then_their_clocks_begin_again_when_it_closes():
    """Given seats 1 and 2 owing since the round began, when seat 0's hex pauses them and seat 1
    allows, then seat 2 owes again from the version the window closed at, while seat 1, owing
    all along (its action, then its answer, then its action), keeps the round's version."""
    table = Played()
    began = match.owing_since(table.state)[2]
    table.send(0, Hex(target=1))
    assert match.owing_since(table.state) == {1: began}
    closing = table.state.version
    table.send(1, Allow())
    since = match.owing_since(table.state)
    assert since[1] == began and closing < since[2] <= table.state.version


def test_given_a_seat_out_of_time_in_a_window_then_the_server_allows_for_it():
    """Given a window waiting on seat 1, then its time-out is the window's default: allow; out
    of a window a seat out of time rests."""
    table = Played()
    assert match.time_out(GAME, table.state, 0) == match.TimeOut(seat=0, action={"type": "rest"})
    table.send(0, Hex(target=1))
    timed_out = match.time_out(GAME, table.state, 1)
    assert timed_out == match.TimeOut(seat=1, action={"type": "allow"})
    events = table.send(None, timed_out)
    assert events[0] == match.SeatTimedOut(seat=1)
    assert table.state.game.health == (2, 1, 2)


def test_given_the_fold_of_the_stored_events_then_it_equals_the_decided_state():
    """Given a match with windows and time-outs, then folding its events gives the very state
    decide_and_evolve gave, the versions and each seat's owing included."""
    table, events = Played(), []
    created = match.open_match(GAME, seats=3, options={}, practice=False, tournament=None,
                               label=None, seed_commitment="c0ffee")
    plays = [(0, Hex(target=1)), (1, Salt()), (0, Allow()), (2, Hex(target=0))]
    for seat, command in plays:
        events += table.send(seat, command)
    events += table.send(None, match.time_out(GAME, table.state, 0))
    refolded = match.fold(GAME, [created], None)
    for n in range(3):
        refolded = match.fold(GAME, match.decide(GAME, refolded, None,
                                                 match.JoinSeat(name=f"Seat {n}"), SEED), refolded)
    refolded = match.fold(GAME, match.decide(GAME, refolded, None, match.StartMatch(), SEED),
                          refolded)
    assert match.fold(GAME, events, refolded) == table.state


def test_a_window_needs_a_seat_to_answer_and_closing_none_is_refused():
    """Given the helpers alone, then a window without seats and closing when none is open are
    refused, and a closed window hands back its effect and its answers."""
    empty: reactions.Reactions[str, Any] = reactions.Reactions()
    with pytest.raises(RuleViolation):
        reactions.opened(empty, "haunt", 0, (), Allow())
    with pytest.raises(RuleViolation):
        reactions.closed(empty)
    opened = reactions.answered(reactions.opened(empty, "haunt", 0, (1,), Allow()), 1, Allow())
    assert reactions.complete(opened)
    window, rest = reactions.closed(opened)
    assert (window.effect, window.answers[0].seat, rest) == ("haunt", 1, empty)


def test_a_concession_in_a_window_ends_the_game():
    """Given an open window, then conceding still works (Concede is always allowed)."""
    table = Played(seats=2)
    table.send(0, Hex(target=1))
    table.send(1, Concede())
    assert GAME.outcome(table.state.game).winners == (0,)
