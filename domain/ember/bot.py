"""Ember's keeper bot: it keeps the cards that make sets, conjures the most VP it can, aims its
abilities at the leader and makes the Call when well ahead (docs/rules/ember.md, "Bots").

It decides from its seat's view only. Every game also has the random bot (domain.core.bots).
"""

from __future__ import annotations

from collections import Counter

from domain.core.rng import Stream
from domain.ember.cards import ARCHMAGE, CARDS, element_of, number_of
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
from domain.ember.observer import EmberView

ARTIFACT_WORTH = 3
CALL_LEAD = 8  # it makes the Call only this far ahead: a Call ends the match for everyone
PATIENCE = 11  # and before this round only three times as far ahead: it builds first
HELPFUL = {"draw", "scavenge", "advance", "steal", "discard", "burn", "regress", "regenerate"}


def keeper(view: EmberView, actions: list[Command], stream: Stream) -> Command:
    """The best of the seat's actions by the rules of thumb above, ties broken at random."""
    scored = [(worth(view, action), action) for action in actions]
    best = max(score for score, _ in scored)
    return stream.choice([action for score, action in scored if score == best])


def keep_value(hand: tuple[str, ...], card: str) -> float:
    """How much a card helps the hand make sets: Archmages most, then shared numbers,
    neighbours, elements, and neighbours of its own element (circles)."""
    if card == ARCHMAGE:
        return 10.0
    numbers = Counter(number_of(c) for c in hand if c != ARCHMAGE)
    elements = Counter(element_of(c) for c in hand if c != ARCHMAGE)
    number, element = number_of(card), element_of(card)
    assert number is not None
    near = sum(numbers[n] for n in (number - 1, number + 1, number - 2, number + 2))
    kin = sum(1 for c in hand if c != ARCHMAGE and element_of(c) == element
              and 0 < abs((number_of(c) or 0) - number) <= 2)
    return 2.0 * (numbers[number] - 1) + 0.6 * (elements[element] - 1) + 0.4 * near + 0.8 * kin


def leader(view: EmberView) -> int | None:
    """The opponent with the most VP."""
    others = [w for w in view.seats if not w.you and not w.conceded]
    return max(others, key=lambda w: w.vp).seat if others else None


def worth(view: EmberView, action: object) -> float:
    """A rough value for one action."""
    match action:
        case Conjure():
            return 100 + conjure_worth(view, action)
        case UseAbility():
            return ability_worth(view, action)
        case Draw(recycle=None):
            return 150  # a free card first: it can only widen the conjures on offer
        case Draw():
            return 50 - keep_value(view.hand, action.recycle or "")
        case Refresh():
            return 1
        case EndTurn():
            return end_worth(view, action)
        case PlayArchmage():
            hits_leader = _owner(view, action.target) == leader(view)
            return 5 if action.effect == "burn" and hits_leader else -5
        case Pass():
            return 0
    return -10


def conjure_worth(view: EmberView, action: Conjure) -> float:
    """The VP a conjure brings (a Spectral as much as its group's creatures, if it goes onto the
    leader), less the Archmages it spends."""
    info = CARDS[action.card]
    gain = float(ARTIFACT_WORTH if info.kind == "artifact" else abs(_vp(view, action.card)))
    if info.spectral and action.onto != leader(view):
        gain -= 0.5
    return gain - 2 * action.paid.count(ARCHMAGE)


def ability_worth(view: EmberView, action: UseAbility) -> float:
    """Abilities are used on the bot's own turn, at the leader, drains only when the end nears."""
    if view.you is None or (view.turn != view.you and view.call is None):
        return -1
    bonus = 4 if action.seat == leader(view) or _owner(view, action.target) == leader(view) else 0
    if action.power == "drain":
        return 2 + bonus if view.round > view.turn_cap // 2 else -1
    if action.target is not None and _owner(view, action.target) == view.you:
        return 75  # a regeneration of its own
    return 70 + bonus if view.call is None else 5 + bonus


def end_worth(view: EmberView, action: EndTurn) -> float:
    """Ending the turn: keep the cards that make sets; make the Call when well ahead (and
    before round 10, far ahead)."""
    lost = sum(keep_value(view.hand, card) for card in action.discard)
    mine = next(w.vp for w in view.seats if w.you)
    best_other = max((w.vp for w in view.seats if not w.you), default=0)
    lead = mine - best_other
    patient = view.round < PATIENCE and lead < 3 * CALL_LEAD
    call = (30 if lead >= CALL_LEAD and not patient else -30) if action.call else 0
    return 10 - lost + call


def _vp(view: EmberView, card: str) -> int:
    """A card's VP as the table offers it (its rules version's), else as printed in version 1
    (a Spectral conjured on from in front of the seat: Spectrals keep their VP)."""
    offers = (*view.pool, *view.dragon_piles, *view.artifacts)
    return next((offer.vp for offer in offers if offer.card == card), CARDS[card].vp)


def _owner(view: EmberView, card: str | None) -> int | None:
    """The seat a card in play lies in front of."""
    for wizard in view.seats:
        if any(c.card == card for c in wizard.cards):
            return wizard.seat
    return None


BOTS = {"keeper": keeper}
