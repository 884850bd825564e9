"""What a seat may do now (E7, E8, E9): the single source decide, the views and the API agree with.

``to_act`` is the seat the rules wait on (its turn, or its go in the last round); ``may_act``
adds every seat that may use an ability out of turn (E8).
"""

from __future__ import annotations

from itertools import combinations

import msgspec

from domain.core.templates import ChooseCards, Template
from domain.ember.board import (
    card_of,
    cost_for,
    hand_size,
    has_legendary,
    offered_to,
    vp,
    warded,
    working,
)
from domain.ember.cards import ARCHMAGE, CARDS, DRAGONS, card_set, shown, title
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
from domain.ember.costs import payments
from domain.ember.effects import choices, opponents
from domain.ember.state import Playing, State, Undealt
from domain.ember.texts import cost_words
from domain.ember.versions import ruleset_of


def closing(state: Playing) -> bool:
    """E9: whether the last round of abilities is under way."""
    return state.call is not None and state.call.seat is not None


def to_act(state: State | Undealt) -> tuple[int, ...]:
    """The seat whose turn (or go in the last round) it is; empty once the match is over."""
    if not isinstance(state, Playing):
        return ()
    if closing(state):
        assert state.call is not None and state.call.seat is not None
        return (state.call.seat,)
    return (state.turn,)


def may_act(state: State | Undealt) -> tuple[int, ...]:
    """E8: the seat to act, and every other seat that may use an ability or an Archmage now."""
    waiting = to_act(state)
    if not isinstance(state, Playing) or closing(state):
        return waiting
    others = [seat for seat in range(len(state.seats))
              if seat not in waiting and any_power(state, seat)]
    return tuple(sorted({*waiting, *others}))


def any_power(state: Playing, seat: int) -> bool:
    """Whether the seat has any ability or Archmage it may use now."""
    return not state.seats[seat].conceded and bool(powers(state, seat))


def legal_actions(state: State | Undealt, seat: int) -> list[Command]:
    """Every complete command the seat may send now, in a fixed order."""
    if not isinstance(state, Playing) or state.seats[seat].conceded:
        return []
    if closing(state):
        return [*powers(state, seat), Pass()] if seat in to_act(state) else []
    mine = turn_actions(state, seat) if seat == state.turn else []
    return [*mine, *powers(state, seat)]


def turn_actions(state: Playing, seat: int) -> list[Command]:
    """E7, E9: the turn's steps open to the seat whose turn it is."""
    actions: list[Command] = []
    if state.step == "draw":
        actions += draws(state, seat)
        if state.seats[seat].hand:
            actions.append(Refresh())
    if state.step in ("draw", "conjure"):
        actions += conjures(state, seat)
    return actions + end_turns(state, seat)


def draws(state: Playing, seat: int) -> list[Draw]:
    """E7: below hand size a plain draw; at or above it, a recycle of each card held."""
    hand = state.seats[seat].hand
    if len(hand) < hand_size(state, seat):
        return [Draw()]
    return [Draw(recycle=card) for card in sorted({shown(card) for card in hand})]


def conjures(state: Playing, seat: int) -> list[Conjure]:
    """E3, E6: every card on offer with every handful that pays its cost (Spectrals onto each
    opponent; one in front of the seat onto any other)."""
    hand = tuple(shown(card) for card in state.seats[seat].hand)
    found = []
    for card in offered_to(state, seat):
        paying = payments(cost_for(state, seat, card), hand)
        ontos = opponents(state, seat) if CARDS[card].spectral else [None]
        found += [Conjure(card=card, paid=paid, onto=onto) for paid in paying for onto in ontos]
    return found


def end_turns(state: Playing, seat: int) -> list[EndTurn]:
    """E7, E9: each way to discard down to hand size, with and without the Call if allowed."""
    hand = sorted(shown(card) for card in state.seats[seat].hand)
    excess = max(0, len(hand) - hand_size(state, seat))
    discards = list(dict.fromkeys(combinations(hand, excess)))
    calls = [False, True] if may_call(state, seat) else [False]
    return [EndTurn(discard=discard, call=call) for call in calls for discard in discards]


def may_call(state: Playing, seat: int) -> bool:
    """E9: no Call made yet, and the seat at or above the threshold."""
    return state.call is None and vp(state, seat) >= state.call_at


def powers(state: Playing, seat: int) -> list[Command]:
    """E6, E8: every ability of the seat's Ready cards, each aim, and each Archmage play."""
    found: list[Command] = []
    for held in state.seats[seat].cards:
        if not working(held):
            continue
        info = card_of(state, held.card)
        for power in ("exhaust", "drain"):
            ability = info.ability(power)
            if ability is None or (power == "drain" and state.call is not None):
                continue
            found += [UseAbility(card=held.card, power=power, target=target, seat=aim)
                      for target, aim in choices(state, seat, ability, held.card)]
        if info.dragon is not None and has_legendary(state, seat, info.dragon):
            legendary = DRAGONS[info.dragon].legendary
            found += [UseAbility(card=held.card, power="legendary", target=target, seat=aim)
                      for target, aim in choices(state, seat, legendary, held.card)]
    return found + archmage_plays(state, seat)


def archmage_plays(state: Playing, seat: int) -> list[PlayArchmage]:
    """E8: with an Archmage in hand: advance one of your creatures to Ready, or burn or
    regenerate any one creature in play (EH3: not one behind an opponent's ward; version 1,
    EH7: regenerate only one of yours)."""
    if not any(shown(card) == ARCHMAGE for card in state.seats[seat].hand):
        return []
    anyone = ruleset_of(state).regenerate_any
    plays = []
    for owner, wizard in enumerate(state.seats):
        for held in wizard.cards:
            if CARDS[held.card].kind == "artifact" or wizard.conceded:
                continue
            reachable = owner == seat or not warded(state, owner)
            if owner == seat and not held.burned and held.turned != "ready":
                plays.append(PlayArchmage(effect="advance", target=held.card))
            if not held.burned and reachable:
                plays.append(PlayArchmage(effect="burn", target=held.card))
            if held.burned and (owner == seat or (anyone and reachable)):
                plays.append(PlayArchmage(effect="regenerate", target=held.card))
    return plays



def offer(state: State | Undealt, seat: int) -> list[Command | Template]:
    """The legal actions as a client is offered them: a discard to hand size and a payment of
    more than one handful as one template each (choose k of the hand), not every combination."""
    if not isinstance(state, Playing) or state.seats[seat].conceded or closing(state) \
            or seat != state.turn:
        return [*legal_actions(state, seat)]
    offered: list[Command | Template] = []
    seen: set[Conjure | EndTurn] = set()
    for action in turn_actions(state, seat):
        if isinstance(action, EndTurn | Conjure):
            kind = _kind(action)
            if kind in seen:
                continue
            seen.add(kind)
            offered.append(_template(state, seat, action) or action)
        else:
            offered.append(action)
    return [*offered, *powers(state, seat)]


def _kind(action: Conjure | EndTurn) -> Conjure | EndTurn:
    """The action with its set of cards left empty: what its template stands for."""
    if isinstance(action, EndTurn):
        return msgspec.structs.replace(action, discard=())
    return msgspec.structs.replace(action, paid=())


def _template(state: Playing, seat: int, action: Conjure | EndTurn) -> Template | None:
    """The template a conjure or an end of turn belongs to, when its cards are a choice among
    more than one set (None: the action is the only one of its kind, offered as it is)."""
    hand = tuple(sorted(shown(card) for card in state.seats[seat].hand))
    if isinstance(action, EndTurn):
        if not action.discard:
            return None
        count = len(action.discard)
        call = " and make the Call" if action.call else ""
        cards = f"{count} card{'s' if count > 1 else ''}"
        return Template(command=action, label=(
            f"End your turn{call}, discarding {cards} of your choice"),
            choose=ChooseCards(field="discard", count=count, among=hand))
    cost = cost_for(state, seat, action.card)
    if len(payments(cost, hand)) < 2:
        return None
    words = cost_words(cost, card_set(state.rules_version))
    onto = "" if action.onto is None else f" onto {state.names[action.onto]}"
    return Template(command=action,
                    label=f"Conjure {title(action.card)}{onto}, paying {words}",
                    choose=ChooseCards(field="paid", count=len(action.paid), among=hand,
                                       rule=f"the cards pay {words}"))
