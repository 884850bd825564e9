"""Deciding: check a seat's command against the rules, then return the events it causes."""

from __future__ import annotations

from domain.core.decider import Concede
from domain.core.errors import NotYourTurn, RuleViolation, WrongPhase
from domain.core.rng import Rng
from domain.whiteout_road.beats import resolve_beat
from domain.whiteout_road.cards import EVERY_CARD, WHITEOUT, is_spade, title, wagon_of
from domain.whiteout_road.commands import BEAT_PLAYS, Commit
from domain.whiteout_road.endings import resolve_gambit
from domain.whiteout_road.events import PlayCommitted, PlaysRevealed, RoadEnded, SeatConceded
from domain.whiteout_road.evolve import Steps, steps_from
from domain.whiteout_road.legal import trail_wagons
from domain.whiteout_road.nights import carry_on
from domain.whiteout_road.state import Beat, Gambit, Over, State, Unopened, seats_in
from domain.whiteout_road.versions import Ruleset

SUIT_PLAYS = {"load": "load", "push": "push", "fling": "be flung"}


def decide_steps(
    state: State | Unopened, seat: int, command: Commit | Concede, rng: Rng, ruleset: Ruleset
) -> Steps[State]:
    """The events a seat's command causes and the state they lead to, or a RuleViolation."""
    if isinstance(state, Over):
        raise WrongPhase("the match is over")
    if not isinstance(state, (Beat, Gambit)):
        raise WrongPhase("no night is in play")
    check_seat(state, seat)
    if isinstance(command, Concede):
        return concede(state, seat, rng, ruleset)
    return commit(state, seat, command, rng, ruleset)


def check_seat(state: Beat | Gambit, seat: int) -> None:
    """The seat exists and is still in the match."""
    if not 0 <= seat < len(state.seats):
        raise RuleViolation(f"there is no seat {seat}")
    if state.seats[seat].conceded:
        raise NotYourTurn("you have conceded this match")


def commit(
    state: Beat | Gambit, seat: int, command: Commit, rng: Rng, ruleset: Ruleset
) -> Steps[State]:
    """R4, R6: the card goes face down; the last commitment reveals them all and play goes on."""
    check_owes(state, seat)
    check_card(state, seat, command.card)
    check_play(state, command)
    steps = steps_from(state, ruleset)
    steps.then(PlayCommitted(seat=seat, card=command.card, play=command.play, wagon=command.wagon))
    settle(steps, rng)
    return steps


def settle(steps: Steps, rng: Rng) -> None:
    """Once nobody owes a card: reveal them together, resolve, and play on until someone owes."""
    state = steps.state
    if state.owing:
        return
    pending = tuple(t.pending for t in state.seats if t.pending is not None)
    steps.then(PlaysRevealed(plays=pending))
    if isinstance(state, Beat):
        resolve_beat(steps)
    else:
        resolve_gambit(steps)
    carry_on(steps, rng)


def check_owes(state: Beat | Gambit, seat: int) -> None:
    """Only a seat that still owes a card may commit one."""
    if seat in state.owing:
        return
    if state.seats[seat].pending is not None:
        raise NotYourTurn("you have already committed a card; wait for the others")
    raise NotYourTurn("your hand is empty: you sit out until the night ends")


def check_card(state: Beat | Gambit, seat: int, card: str) -> None:
    """The card is a card name, and one you hold."""
    if card not in EVERY_CARD:
        raise RuleViolation(f"there is no card called {card!r}; cards are named like 7C, 10H, KS")
    if card == WHITEOUT:
        raise RuleViolation("the whiteout is never in a hand")
    if card not in state.seats[seat].hand:
        raise RuleViolation(f"you do not hold {title(card)}")


def check_play(state: Beat | Gambit, command: Commit) -> None:
    """The play fits the phase, the card's suit and, for break trail, the wagon (R4, R6)."""
    gambit = isinstance(state, Gambit)
    if gambit == (command.play in BEAT_PLAYS):
        raise RuleViolation(
            "in the Gambit you fling a heart, diamond or club, or keep watch with a spade"
            if gambit
            else "in a beat you feed, load, push or break trail; fling and watch are for the Gambit"
        )
    if command.play == "break_trail":
        check_trail(state, command)
    elif command.wagon is not None:
        raise RuleViolation(f"only break trail names a wagon; send no wagon to {command.play}")
    elif command.play in SUIT_PLAYS and is_spade(command.card):
        raise RuleViolation(f"a spade cannot {SUIT_PLAYS[command.play]}; {_spade_can(gambit)}")
    elif command.play == "watch" and not is_spade(command.card):
        raise RuleViolation(
            f"only a spade keeps watch; fling {title(command.card)} onto the "
            f"{wagon_of(command.card)} wagon"
        )


def _spade_can(gambit: bool) -> str:
    """What a spade may do instead."""
    return "it keeps watch" if gambit else "it may feed the fire or break trail"


def check_trail(state: Beat | Gambit, command: Commit) -> None:
    """R4: a spade breaks trail for a laden wagon on 3 or 4."""
    if not is_spade(command.card):
        raise RuleViolation(f"only a spade breaks trail, not {title(command.card)}")
    if command.wagon is None:
        raise RuleViolation("name the wagon to break trail for")
    if command.wagon not in trail_wagons(state):
        cart = state.board.wagon(command.wagon) if state.board else None
        where = "empty" if cart is None or not cart.laden else f"on {cart.position}"
        raise RuleViolation(
            f"the {command.wagon} wagon is {where}: break trail shovels a laden wagon "
            "from 3 to 4 or from 4 to 5"
        )


def concede(state: Beat | Gambit, seat: int, rng: Rng, ruleset: Ruleset) -> Steps[State]:
    """R10: the hand is set aside; the last seat still in wins at once; a last owed card reveals."""
    steps = steps_from(state, ruleset)
    traveller = state.seats[seat]
    pending = () if traveller.pending is None else (traveller.pending.card,)
    steps.then(SeatConceded(seat=seat, set_aside=(*traveller.hand, *pending)))
    still_in = seats_in(steps.state)
    if len(still_in) == 1:
        steps.then(RoadEnded(winners=still_in))
    elif seat in state.owing:
        settle(steps, rng)
    return steps
