"""Deciding: check a seat's command against the rules, then return the events it causes."""

from __future__ import annotations

from domain.core.decider import Concede
from domain.core.errors import NotYourTurn, RuleViolation, WrongPhase
from domain.core.rng import Rng
from domain.wick_ember.cards import (
    CHOOSES_A_SEAT,
    HEARTHFLAME,
    LAMP_WARDEN,
    MOTH_DUCHESS,
    NAMES,
    name_of,
    title,
)
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.effects import resolve
from domain.wick_ember.events import CardPlayed, Event, SeatConceded
from domain.wick_ember.evolve import Steps, steps_from
from domain.wick_ember.legal import forcing_card, targets
from domain.wick_ember.rounds import end_round, finish_turn
from domain.wick_ember.state import Finished, Playing, State, Unlit, lit_seats


def decide_steps(
    state: State | Unlit, seat: int, command: PlayCard | Concede, rng: Rng
) -> Steps[State | Unlit, Event]:
    """The events a seat's command causes and the state they lead to, or a RuleViolation."""
    if isinstance(state, Finished):
        raise WrongPhase("the match is over")
    if not isinstance(state, Playing):
        raise WrongPhase("no round is in play")
    check_seat(state, seat)
    if isinstance(command, Concede):
        return concede(state, seat, rng)
    return play(state, seat, command, rng)


def check_seat(state: Playing, seat: int) -> None:
    """The seat exists and is still in the match."""
    if not 0 <= seat < state.night.seats:
        raise RuleViolation(f"there is no seat {seat}")
    if state.seats[seat].conceded:
        raise NotYourTurn("you have conceded this match")


def play(state: Playing, seat: int, command: PlayCard, rng: Rng) -> Steps[State, Event]:
    """W5: play a card into the lantern log, resolve it, then the end-of-turn checks."""
    check_turn(state, seat)
    card = check_card(state, seat, command)
    check_target(state, seat, command)
    check_guess(command)
    steps = steps_from(state)
    steps.then(CardPlayed(seat=seat, card=card, target=command.target, guess=command.guess))
    resolve(steps, seat, command)
    finish_turn(steps, seat, rng)
    return steps


def check_turn(state: Playing, seat: int) -> None:
    """Only the seat whose turn it is may play."""
    if state.turn == seat:
        return
    if not state.seats[seat].lit:
        raise NotYourTurn("your flame is snuffed; wait for the next round")
    whose = state.night.names[state.turn] if state.turn is not None else "nobody"
    raise NotYourTurn(f"it is {whose}'s turn, not yours")


def check_card(state: Playing, seat: int, command: PlayCard) -> int:
    """The card is one you hold and may play (W12); H4: the copy you got last is played."""
    if command.card not in NAMES:
        raise RuleViolation(f"there is no card called {command.card!r}")
    hand = state.seats[seat].hand
    held = [card for card in hand if name_of(card) == command.card]
    if not held:
        raise RuleViolation(f"you do not hold the {title(command.card)}")
    if command.card == HEARTHFLAME:
        raise RuleViolation("the Hearthflame is never played; play your other card")
    forcing = forcing_card(hand)
    if forcing and command.card != MOTH_DUCHESS:
        raise RuleViolation(f"you must play the Moth Duchess while you hold the {title(forcing)}")
    return held[-1]


def check_target(state: Playing, seat: int, command: PlayCard) -> None:
    """W5: a card that chooses a seat names a legal one, or none when no seat is legal."""
    name, target = title(command.card), command.target
    if command.card not in CHOOSES_A_SEAT:
        if target is not None:
            raise RuleViolation(f"the {name} does not choose a seat; send no target")
        return
    legal = targets(state, seat)
    if not legal and target is not None:
        raise RuleViolation(
            f"every other flame is snuffed or veiled: play the {name} with no target"
        )
    if legal and target is None:
        choices = ", ".join(f"{state.night.names[s]} (seat {s})" for s in legal)
        raise RuleViolation(f"the {name} must choose a seat: {choices}")
    if target is not None and target not in legal:
        raise RuleViolation(why_not(state, seat, target))


def why_not(state: Playing, seat: int, target: int) -> str:
    """Why a chosen seat is not a legal target."""
    if not 0 <= target < state.night.seats:
        return f"there is no seat {target}"
    if target == seat:
        return "you cannot choose yourself"
    name = state.night.names[target]
    if not state.seats[target].lit:
        return f"{name}'s flame is snuffed; choose a lit seat"
    return f"{name} is veiled and cannot be chosen"


def check_guess(command: PlayCard) -> None:
    """W6: a Lamp Warden that found a seat names a rank from 2 to 8; nothing else guesses (H3)."""
    if command.card != LAMP_WARDEN or command.target is None:
        if command.guess is not None:
            raise RuleViolation(_no_guess(command))
        return
    if command.guess is None:
        raise RuleViolation("the Lamp Warden must name a card (any but the Lamp Warden)")
    if command.guess not in NAMES:
        raise RuleViolation(f"there is no card called {command.guess!r}")
    if command.guess == LAMP_WARDEN:
        raise RuleViolation("the Lamp Warden cannot name the Lamp Warden")


def _no_guess(command: PlayCard) -> str:
    """Why a guess is not wanted with this play."""
    if command.card == LAMP_WARDEN:
        return "the Lamp Warden finds no one, so it names no card; send no guess"
    return f"only the Lamp Warden names a card; send no guess with the {title(command.card)}"


def concede(state: Playing, seat: int, rng: Rng) -> Steps[State, Event]:
    """W15, H5: the seat's flame goes out for good; on its turn, the turn ends as after a play."""
    steps = steps_from(state)
    steps.then(SeatConceded(seat=seat, revealed=state.seats[seat].hand))
    lit = lit_seats(steps.state)
    if state.turn == seat:
        finish_turn(steps, seat, rng)
    elif len(lit) == 1:
        end_round(steps, lit, rng)
    return steps
