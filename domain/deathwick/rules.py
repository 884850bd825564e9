"""Deciding: check a seat's command against the rules, then decide the events it causes."""

from __future__ import annotations

from typing import Any

from domain.core import reactions
from domain.core.decider import Concede
from domain.core.errors import NotYourTurn, RuleViolation, WrongPhase
from domain.core.reactions import Allow
from domain.core.rng import Rng
from domain.core.steps import Steps
from domain.deathwick.checks import check_action, held
from domain.deathwick.classes import hand_limit, title
from domain.deathwick.commands import (
    CancelHaunt,
    ChooseClass,
    Command,
    DiscardCard,
    DiscardCards,
    ThrowSalt,
)
from domain.deathwick.events import (
    ActionCancelled,
    ActionDeclared,
    CardDiscarded,
    ClassChosen,
    Event,
)
from domain.deathwick.evolve import steps_from
from domain.deathwick.flow import advance, begin_round, burden_or_end, end_ritual, fall
from domain.deathwick.state import Drafting, Over, Playing, State, Unformed, turn_of
from domain.deathwick.windows import answer, open_or_resolve

ANSWERS = (ThrowSalt, CancelHaunt, Allow)


def decide_steps(
    state: State | Unformed, seat: int, command: Command, rng: Rng
) -> Steps[State, Event]:
    """The events a seat's command causes and the state they lead to, or a RuleViolation."""
    if isinstance(state, Over):
        raise WrongPhase("the match is over")
    if not isinstance(state, Drafting | Playing):
        raise WrongPhase("the circle has not formed yet")
    if not 0 <= seat < len(state.players):
        raise RuleViolation(f"there is no seat {seat}")
    if not state.players[seat].alive:
        raise NotYourTurn("you are out of the circle")
    steps = steps_from(state)
    if isinstance(command, Concede):
        concede(steps, seat, rng)
    elif isinstance(state, Drafting):
        choose_class(steps, seat, command)
    elif isinstance(command, ChooseClass):
        raise WrongPhase("the classes have been chosen and play has begun")
    elif isinstance(command, ANSWERS):
        reactions.check_answering(state.windows, seat)
        answer(steps, seat, command, rng)
    else:
        reactions.check_no_window(state.windows, seat)
        act(steps, seat, command, rng)
    return steps


def choose_class(steps: Steps, seat: int, command: Any) -> None:
    """D3: a seat accepts one of its three offered classes; play begins once all have."""
    state: Drafting = steps.state
    if not isinstance(command, ChooseClass):
        raise WrongPhase("the classes are being chosen: choose yours first")
    player = state.players[seat]
    if player.curse is not None:
        raise NotYourTurn(f"you are {title(player.curse)} already; wait for the others")
    if command.name not in player.offer:
        offered = ", ".join(player.offer)
        raise RuleViolation(f"choose one of the classes offered to you: {offered}")
    steps.then(ClassChosen(seat=seat, name=command.name))
    draft_done(steps)


def draft_done(steps: Steps) -> None:
    """Once every seat in the circle has a class, the first round begins."""
    state = steps.state
    if isinstance(state, Drafting) and all(p.curse or not p.alive for p in state.players):
        begin_round(steps)


def act(steps: Steps, seat: int, command: Any, rng: Rng) -> None:
    """A Ritual action (D6) or a Burden discard (D5), from a seat whose turn is under way."""
    state: Playing = steps.state
    turn = turn_of(state, seat)
    if turn is None:
        raise NotYourTurn("it is not your turn")
    if isinstance(command, DiscardCard):
        discard(steps, seat, turn.phase, command)
        return
    if isinstance(command, DiscardCards):
        discard_all(steps, seat, turn.phase, command)
        return
    if turn.phase != "ritual":
        raise RuleViolation("your Ritual is over: discard down to your hand limit")
    plan = check_action(state, seat, turn, command)
    steps.then(ActionDeclared(seat=seat, action=command, card=plan.card, target=plan.target,
                              also=plan.also, ghost=plan.ghost))
    open_or_resolve(steps, rng)


def discard(steps: Steps, seat: int, phase: str, command: DiscardCard) -> None:
    """D5: the Burden, one card at a time, down to the hand limit; then Am I Alive."""
    if phase != "burden":
        raise RuleViolation("you discard in the Burden, after your Ritual action")
    card = held(steps.state, seat, command.card)
    steps.then(CardDiscarded(seat=seat, card=card))
    burden_or_end(steps, seat)


def discard_all(steps: Steps, seat: int, phase: str, command: DiscardCards) -> None:
    """D5: the whole Burden at once: exactly the cards over the hand limit, each one held (a code
    named twice needs two copies); then Am I Alive, as after the last single discard."""
    if phase != "burden":
        raise RuleViolation("you discard in the Burden, after your Ritual action")
    player = steps.state.players[seat]
    over = len(player.hand) - hand_limit(player.curse)
    if len(command.cards) != over:
        raise RuleViolation(f"discard exactly {over} card{'s' if over != 1 else ''}: your hand "
                            f"holds {len(player.hand)} and its limit is {len(player.hand) - over}")
    for code in command.cards:
        steps.then(CardDiscarded(seat=seat, card=held(steps.state, seat, code)))
    burden_or_end(steps, seat)


def concede(steps: Steps, seat: int, rng: Rng) -> None:
    """D10: the seat is out at once; an action it is part of is cancelled (DH7)."""
    state = steps.state
    declared = getattr(state, "declared", None)
    attacker = None
    if declared is not None and seat in (declared.seat, declared.target):
        steps.then(ActionCancelled(seat=declared.seat, ends_turn=declared.seat != seat))
        attacker = declared.seat if declared.seat != seat else None
    fall(steps, [seat], "conceded")
    if isinstance(steps.state, Over):
        return
    if isinstance(steps.state, Drafting):
        draft_done(steps)
        return
    if attacker is not None:
        end_ritual(steps, attacker)
    advance(steps)

