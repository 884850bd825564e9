"""Deciding: check a seat's command against the rules, then decide the events it causes."""

from __future__ import annotations

from domain.core.decider import Concede
from domain.core.errors import NotYourTurn, RuleViolation, WrongPhase
from domain.core.rng import Rng
from domain.core.steps import Steps
from domain.ember.board import card_of, cost_for, extra_draws, hand_size, offered_to, vp, working
from domain.ember.cards import ARCHMAGE, CARDS, DRAGONS, Ability, cost_text, shown, title
from domain.ember.commands import (
    Command,
    Conjure,
    Draw,
    EndTurn,
    Pass,
    PlayArchmage,
    Refresh,
    UseAbility,
)
from domain.ember.costs import pays
from domain.ember.effects import apply, choices, opponents
from domain.ember.events import (
    AbilityUsed,
    ArchmagePlayed,
    CardTurned,
    Conjured,
    CreatureBurned,
    CreatureRegenerated,
    DrawTaken,
    Event,
    HandRefreshed,
    Passed,
    SeatConceded,
    TurnEnded,
)
from domain.ember.evolve import steps_from
from domain.ember.flow import all_passed, draw, next_turn, score
from domain.ember.legal import archmage_plays, closing, may_call
from domain.ember.state import Finished, Playing, State, Undealt, seats_in


def decide_steps(
    state: State | Undealt, seat: int, command: Command, rng: Rng
) -> Steps[State, Event]:
    """The events a seat's command causes and the state they lead to, or a RuleViolation."""
    if isinstance(state, Finished):
        raise WrongPhase("the match is over")
    if not isinstance(state, Playing):
        raise WrongPhase("nothing has been dealt yet")
    if not 0 <= seat < len(state.seats):
        raise RuleViolation(f"there is no seat {seat}")
    if state.seats[seat].conceded:
        raise NotYourTurn("you have conceded this match")
    steps = steps_from(state)
    match command:
        case Concede():
            concede(steps, seat, rng)
        case UseAbility() | PlayArchmage() | Pass():
            check_go(state, seat, command)
            use_power(steps, seat, command, rng)
        case _:
            check_turn(state, seat)
            take_turn_step(steps, seat, command, rng)
    return steps


def check_go(state: Playing, seat: int, command: object) -> None:
    """E8, E9: abilities at any time, except that the last round goes seat by seat."""
    if isinstance(command, Pass) and not closing(state):
        raise WrongPhase("passing is for the last round of abilities, after the Call")
    if closing(state) and state.call is not None and state.call.seat != seat:
        raise NotYourTurn(f"in the last round it is {state.names[state.call.seat or 0]}'s go")


def check_turn(state: Playing, seat: int) -> None:
    """E7: the turn's steps belong to the seat whose turn it is."""
    if closing(state):
        raise WrongPhase("the last round of abilities is under way: use an ability or pass")
    if state.turn != seat:
        raise NotYourTurn(f"it is {state.names[state.turn]}'s turn, not yours")


def take_turn_step(steps: Steps, seat: int, command: object, rng: Rng) -> None:
    """One step of the seat's own turn (E7)."""
    match command:
        case Draw():
            take_draw(steps, seat, command, rng)
        case Refresh():
            refresh(steps, seat, rng)
        case Conjure():
            conjure(steps, seat, command, rng)
        case EndTurn():
            end_turn(steps, seat, command)
        case _:
            raise RuleViolation(f"unknown command {type(command).__name__}")


def held_ids(state: Playing, seat: int, names: tuple[str, ...], what: str) -> tuple[str, ...]:
    """The card ids in the seat's hand for the shown names (each once), or a RuleViolation."""
    hand = list(state.seats[seat].hand)
    ids = []
    for name in names:
        card = next((c for c in hand if shown(c) == name), None)
        if card is None:
            raise RuleViolation(f"you cannot {what} {name!r}: it is not in your hand "
                                "(or not that many times)")
        hand.remove(card)
        ids.append(card)
    return tuple(ids)


def take_draw(steps: Steps, seat: int, command: Draw, rng: Rng) -> None:
    """E7: the draw step; at hand size one card must be recycled to draw."""
    state: Playing = steps.state
    if state.step != "draw":
        raise WrongPhase(_no_draw_step(state))
    at_size = len(state.seats[seat].hand) >= hand_size(state, seat)
    if at_size and command.recycle is None:
        raise RuleViolation("your hand is at its size: recycle a card to draw")
    if not at_size and command.recycle is not None:
        raise RuleViolation("your hand is below its size: draw without recycling")
    recycled = None
    if command.recycle is not None:
        recycled = held_ids(state, seat, (command.recycle,), "recycle")[0]
    steps.then(DrawTaken(seat=seat, recycled=recycled))
    draw(steps, seat, 1 + extra_draws(state, seat), rng)


def _no_draw_step(state: Playing) -> str:
    """Why the draw step is not open now."""
    if state.round == 1 and state.turn == state.first and state.step == "conjure" \
            and not state.opening_draw:
        return "the first player has no draw step on the first turn of all (EH15)"
    return "you have already drawn, refreshed or conjured this turn"


def refresh(steps: Steps, seat: int, rng: Rng) -> None:
    """E7: discard the whole hand and draw as many; no conjure this turn."""
    state: Playing = steps.state
    if state.step != "draw":
        raise WrongPhase(f"a Refresh takes the draw step: {_no_draw_step(state)}")
    hand = state.seats[seat].hand
    if not hand:
        raise RuleViolation("your hand is empty: there is nothing to refresh")
    steps.then(HandRefreshed(seat=seat, cards=hand))
    draw(steps, seat, len(hand), rng)


def conjure(steps: Steps, seat: int, command: Conjure, rng: Rng) -> None:
    """E3, E6, E7: pay the card's cost from hand, claim it, draw as many cards as were paid."""
    state: Playing = steps.state
    if state.step == "end":
        raise WrongPhase("you have already conjured or refreshed this turn")
    if command.card not in CARDS:
        raise RuleViolation(f"there is no card {command.card!r} to conjure")
    if command.card not in offered_to(state, seat):
        raise RuleViolation(f"the {title(command.card)} is not on offer to you now")
    onto = check_onto(state, seat, command)
    paid = held_ids(state, seat, command.paid, "pay with")
    cost = cost_for(state, seat, command.card)
    if not pays(cost, tuple(sorted(command.paid))):
        raise RuleViolation(f"those cards do not pay the {title(command.card)}'s cost: "
                            f"{cost_text(cost)}")
    steps.then(Conjured(seat=seat, card=command.card, paid=paid, onto=onto))
    draw(steps, seat, len(paid), rng)


def check_onto(state: Playing, seat: int, command: Conjure) -> int:
    """E2: a Spectral goes onto an opponent still in the match; anything else onto its conjurer."""
    if not CARDS[command.card].spectral:
        if command.onto is not None:
            raise RuleViolation(f"the {title(command.card)} is no Spectral: send no onto")
        return seat
    if command.onto not in opponents(state, seat):
        raise RuleViolation(f"the {title(command.card)} is a Spectral: conjure it onto an "
                            "opponent still in the match")
    return command.onto


def end_turn(steps: Steps, seat: int, command: EndTurn) -> None:
    """E7, E9: discard down to hand size, perhaps make the Call, and the next turn begins."""
    state: Playing = steps.state
    excess = max(0, len(state.seats[seat].hand) - hand_size(state, seat))
    if len(command.discard) != excess:
        raise RuleViolation(f"discard exactly {excess} card(s) to end your turn at hand size")
    discarded = held_ids(state, seat, command.discard, "discard")
    if command.call and not may_call(state, seat):
        why = "the Call has been made" if state.call is not None else (
            f"you have {vp(state, seat)} VP; the Call needs {state.call_at}")
        raise RuleViolation(f"you cannot make the Call: {why}")
    steps.then(TurnEnded(seat=seat, discarded=discarded, called=command.call))
    next_turn(steps, seat)


def use_power(steps: Steps, seat: int, command: object, rng: Rng) -> None:
    """E6, E8, E9: an ability, an Archmage or a pass; the last round may end with it."""
    match command:
        case UseAbility():
            use_ability(steps, seat, command, rng)
        case PlayArchmage():
            play_archmage(steps, seat, command)
        case Pass():
            steps.then(Passed(seat=seat))
    if all_passed(steps.state):
        score(steps)


def use_ability(steps: Steps, seat: int, command: UseAbility, rng: Rng) -> None:
    """E6, E8: exhaust a Ready card (or Drain an artifact) and carry out its ability."""
    state: Playing = steps.state
    held = next((h for h in state.seats[seat].cards if h.card == command.card), None)
    if held is None:
        raise RuleViolation(f"you have no {command.card!r} in play")
    if not working(held):
        raise RuleViolation(f"the {title(held.card)} is not Ready")
    ability = power_of(state, seat, command)
    aim = (command.target, command.seat)
    if aim not in choices(state, seat, ability, held.card):
        raise RuleViolation(f"{ability.name} cannot be aimed that way now")
    steps.then(AbilityUsed(seat=seat, card=held.card, power=command.power,
                           target=command.target, target_seat=command.seat))
    apply(steps, seat, ability, aim, held.card, rng)


def power_of(state: Playing, seat: int, command: UseAbility) -> Ability:
    """The ability a command asks for, or why the card has none to use now."""
    info = card_of(state, command.card)
    if command.power == "legendary":
        if info.dragon is None or not _all_parts(state, seat, info.dragon):
            raise RuleViolation("the Legendary ability needs all three parts of one dragon")
        return DRAGONS[info.dragon].legendary
    ability = info.ability(command.power)
    if ability is None:
        raise RuleViolation(f"the {info.name} has no {command.power} ability")
    if command.power == "drain" and state.call is not None:
        raise RuleViolation("no Drain once the Call has been made (E6)")
    return ability


def _all_parts(state: Playing, seat: int, dragon: str) -> bool:
    """Whether all three parts of a dragon lie in front of the seat."""
    mine = {h.card for h in state.seats[seat].cards}
    return set(DRAGONS[dragon].parts) <= mine


def play_archmage(steps: Steps, seat: int, command: PlayArchmage) -> None:
    """E8: an Archmage from hand to the Charred pile, for one effect on one creature."""
    state: Playing = steps.state
    archmage = next((c for c in state.seats[seat].hand if shown(c) == ARCHMAGE), None)
    if archmage is None:
        raise RuleViolation("you hold no Archmage")
    if command not in archmage_plays(state, seat):
        raise RuleViolation(f"an Archmage cannot {command.effect} {command.target!r} now")
    steps.then(ArchmagePlayed(seat=seat, archmage=archmage, effect=command.effect,
                              target=command.target))
    match command.effect:
        case "advance":
            steps.then(CardTurned(card=command.target, turned="ready"))
        case "burn":
            steps.then(CreatureBurned(card=command.target))
        case "regenerate":
            steps.then(CreatureRegenerated(card=command.target))


def concede(steps: Steps, seat: int, rng: Rng) -> None:
    """EH4: the seat leaves the match; its turn or go passes on; one seat left wins."""
    state: Playing = steps.state
    steps.then(SeatConceded(seat=seat))
    after: Playing = steps.state
    if len(seats_in(after)) <= 1 or all_passed(after):
        score(steps)
    elif not closing(state) and state.turn == seat:
        next_turn(steps, seat)

