"""Recording events: a plain fold that never validates and never needs the generator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from domain.core import reactions
from domain.core.phases import become
from domain.core.reactions import Allow
from domain.core.steps import Steps
from domain.deathwick import events as ev
from domain.deathwick.cards import code as _code
from domain.deathwick.classes import CLOWN, SEALBINDER
from domain.deathwick.commands import CancelHaunt, Ignite, ThrowSalt
from domain.deathwick.state import (
    Declared,
    Drafting,
    Ghost,
    Over,
    Player,
    Playing,
    Sight,
    State,
    Threat,
    Turn,
    Unformed,
    with_player,
)
from domain.deathwick.versions import ruleset_of

replace = msgspec.structs.replace


# What a Steps starts from: a formed circle (deciding a command) or the unformed one (the setup).
Folded = TypeVar("Folded", State, State | Unformed)


def evolve(state: State | Unformed, event: ev.Event) -> State:
    """The state after one event."""
    return _RECORDERS[type(event)](state, event)


def steps_from(state: Folded) -> Steps[Folded, ev.Event]:
    """Decide step by step from a state, each rule seeing the table as it is by then."""
    return Steps(state, evolve)


def _formed(_: Unformed, event: ev.CircleFormed) -> Drafting:
    """The circle forms; play waits for the draft (or its end, when classes are off)."""
    return Drafting(names=event.names, decks=event.decks, classes=event.classes,
                    ritual=event.ritual, prompts=event.reaction_prompts, first=event.first,
                    players=tuple(Player(candle=candle) for candle in event.candles),
                    dark=event.dark, rules_version=event.rules_version)


def _drawn(state: Any, event: ev.CardsDrawn) -> Any:
    """Cards from the top of the Candle into the hand."""
    player = state.players[event.seat]
    count = len(event.cards)
    return with_player(state, event.seat, candle=player.candle[count:],
                       hand=(*player.hand, *event.cards))


def _offered(state: Drafting, event: ev.ClassesOffered) -> Drafting:
    """Each seat's offer."""
    players = tuple(replace(p, offer=offer) for p, offer in zip(state.players, event.offers))
    return replace(state, players=players)


def _chosen(state: Drafting, event: ev.ClassChosen) -> Drafting:
    """A seat's class."""
    return with_player(state, event.seat, curse=event.name)


def _round(state: Any, event: ev.RoundBegan) -> Playing:
    """A new round's arcs (the draft, if any, is over)."""
    return become(Playing, state, round=event.round, arcs=event.arcs, step=0, turns=())


def _step(state: Playing, event: ev.StepBegan) -> Playing:
    """A new step of the round."""
    return replace(state, step=event.step, turns=())


def _turn(state: Playing, event: ev.TurnBegan) -> Playing:
    """A seat's turn is under way; its Sight snapshots are gone (DH4)."""
    sights = tuple(sight for sight in state.sights if sight.looker != event.seat)
    turn = Turn(seat=event.seat, number=event.turn)
    return replace(state, turns=(*state.turns, turn), turn_count=event.turn, sights=sights)


def _burned(state: Any, event: ev.CardBurned) -> Any:
    """The top of the Candle goes on top of The Dark."""
    player = state.players[event.seat]
    state = with_player(state, event.seat, candle=player.candle[1:])
    return replace(state, dark=(event.card, *state.dark))


def _declared(state: Playing, event: ev.ActionDeclared) -> Playing:
    """The card leaves the hand for the table."""
    if event.card is not None:
        state = with_player(state, event.seat, hand=_without(state.players[event.seat].hand,
                                                             event.card))
    declared = Declared(seat=event.seat, action=event.action, card=event.card,
                        target=event.target, also=event.also, ghost=event.ghost)
    return replace(state, declared=declared)


def _awaited(state: Playing, event: ev.ReactionAwaited) -> Playing:
    """A window opens for the seat: over the action, or over a Salt thrown against it."""
    declared = state.declared
    assert declared is not None and declared.target is not None
    threat = Threat(attacker=declared.seat, target=declared.target, salt_by=event.salt_by)
    windows = reactions.opened(state.windows, threat, event.salt_by, (event.seat,), Allow())
    return replace(state, windows=windows)


def _salted(state: Playing, event: ev.SaltThrown) -> Playing:
    """The Salt goes on top of The Dark; the seat's answer is recorded."""
    hand = _without(state.players[event.seat].hand, event.card)
    state = with_player(state, event.seat, hand=hand)
    windows = reactions.answered(state.windows, event.seat, ThrowSalt(card=_code(event.card)))
    return replace(state, dark=(event.card, *state.dark), windows=windows)


def _allowed(state: Playing, event: ev.Allowed) -> Playing:
    """The seat's allow is recorded."""
    return replace(state, windows=reactions.answered(state.windows, event.seat, Allow()))


def _haunt_cancelled(state: Playing, event: ev.HauntCancelled) -> Playing:
    """The class power's card goes to The Dark; the power is spent for this attacker's turn."""
    player = state.players[event.seat]
    attacker_turn = next(t.number for t in state.turns if state.declared
                         and t.seat == state.declared.seat)
    state = with_player(state, event.seat, hand=_without(player.hand, event.card),
                        cancels=(*player.cancels, attacker_turn))
    windows = reactions.answered(state.windows, event.seat, CancelHaunt(card=_code(event.card)))
    return replace(state, dark=(event.card, *state.dark), windows=windows)


def _cancelled(state: Playing, event: ev.ActionCancelled) -> Playing:
    """The action's card goes to The Dark; every window closes."""
    return _off_table(state)


def _off_table(state: Playing) -> Playing:
    """The declared card (if still on the table) to The Dark; no action, no window."""
    declared = state.declared
    dark = state.dark
    if declared is not None and declared.card is not None:
        dark = (declared.card, *dark)
    return replace(state, declared=None, windows=reactions.Reactions(), dark=dark)


def _retargeted(state: Playing, event: ev.ActionRetargeted) -> Playing:
    """The Watcher's Sight turns to the other neighbour; its windows start afresh."""
    assert state.declared is not None
    declared = replace(state.declared, target=event.target, also=None)
    return replace(state, declared=declared, windows=reactions.Reactions())


def _haunted(state: Playing, event: ev.Haunted) -> Playing:
    """The declared card becomes a ghost in the target's Shadow."""
    declared = state.declared
    assert declared is not None and declared.card is not None
    ghost = Ghost(card=declared.card, by=event.seat, bound=event.bound)
    shadow = (*state.players[event.target].shadow, ghost)
    state = with_player(state, event.target, shadow=shadow)
    return replace(state, declared=replace(declared, card=None))


def _risen(state: Any, event: ev.GhostRisen) -> Any:
    """BOO!: the Candle's top card becomes a ghost."""
    player = state.players[event.seat]
    ghost = Ghost(card=event.card, by=event.by)
    return with_player(state, event.seat, candle=player.candle[1:],
                       shadow=(*player.shadow, ghost))


def _seen(state: Playing, event: ev.HandSeen) -> Playing:
    """The looker keeps a snapshot."""
    sight = Sight(looker=event.seat, target=event.target, cards=event.cards)
    kept = tuple(s for s in state.sights if (s.looker, s.target) != (event.seat, event.target))
    return replace(state, sights=(*kept, sight))


def _scared(state: Playing, event: ev.CardsScared) -> Playing:
    """The blind discards go on top of The Dark."""
    hand = state.players[event.target].hand
    for card in event.cards:
        hand = _without(hand, card)
    state = with_player(state, event.target, hand=hand)
    return replace(state, dark=(*reversed(event.cards), *state.dark))


def _drained(state: Playing, event: ev.CandleDrained) -> Playing:
    """The target's top card goes on top of the seat's Candle."""
    theirs = state.players[event.target].candle
    state = with_player(state, event.target, candle=theirs[1:])
    return with_player(state, event.seat, candle=(theirs[0], *state.players[event.seat].candle))


def _claimed(state: Playing, event: ev.CardClaimed) -> Playing:
    """The card moves from the target's hand to the seat's."""
    state = with_player(state, event.target,
                        hand=_without(state.players[event.target].hand, event.card))
    return with_player(state, event.seat, hand=(*state.players[event.seat].hand, event.card))


def _banished(state: Playing, event: ev.GhostBanished) -> Playing:
    """The ghost to The Dark, or Siphoned to the bottom of the Candle."""
    player = state.players[event.seat]
    ghost = player.shadow[event.index]
    shadow = player.shadow[:event.index] + player.shadow[event.index + 1:]
    if event.siphoned:
        return with_player(state, event.seat, shadow=shadow, candle=(*player.candle, ghost.card))
    state = with_player(state, event.seat, shadow=shadow)
    return replace(state, dark=(ghost.card, *state.dark))


def _recalled(state: Playing, event: ev.GhostRecalled) -> Playing:
    """The ghost goes to the seat's hand."""
    owner = state.players[event.owner]
    ghost = owner.shadow[event.index]
    state = with_player(state, event.owner,
                        shadow=owner.shadow[:event.index] + owner.shadow[event.index + 1:])
    return with_player(state, event.seat, hand=(*state.players[event.seat].hand, ghost.card))


def _possessed(state: Playing, event: ev.GhostPossessed) -> Playing:
    """The ghost moves to the target's Shadow, put there by the seat."""
    mine = state.players[event.seat]
    ghost = replace(mine.shadow[event.index], by=event.seat, bound=None)
    state = with_player(state, event.seat,
                        shadow=mine.shadow[:event.index] + mine.shadow[event.index + 1:])
    return with_player(state, event.target, shadow=(*state.players[event.target].shadow, ghost))


def _rekindled(state: Playing, event: ev.CandleRekindled) -> Playing:
    """The top of The Dark, as it lies, goes on top of the Candle."""
    taken = state.dark[:event.count]
    state = with_player(state, event.seat, candle=(*taken, *state.players[event.seat].candle))
    return replace(state, dark=state.dark[event.count:])


def _swapped(state: Playing, event: ev.ShadowsSwapped) -> Playing:
    """Two Shadows swap; the Sealbinder's ghosts stay where they are (D3), and from rules
    version 2 the Clown's too (DH19; version 1 carried them)."""
    staying = (SEALBINDER, CLOWN) if ruleset_of(state).mirror_leaves_clowns else (SEALBINDER,)
    mine, theirs = state.players[event.seat].shadow, state.players[event.target].shadow
    stay_mine = tuple(g for g in mine if g.bound in staying)
    stay_theirs = tuple(g for g in theirs if g.bound in staying)
    move_mine = tuple(g for g in mine if g.bound not in staying)
    move_theirs = tuple(g for g in theirs if g.bound not in staying)
    state = with_player(state, event.seat, shadow=(*stay_mine, *move_theirs))
    return with_player(state, event.target, shadow=(*stay_theirs, *move_mine))


def _dark_taken(state: Playing, event: ev.DarkTaken) -> Playing:
    """The top card of The Dark goes to the hand."""
    state = with_player(state, event.seat, hand=(*state.players[event.seat].hand, event.card))
    return replace(state, dark=state.dark[1:])


def _flipped(state: Playing, event: ev.PanicFlipped) -> Playing:
    """The flipped card goes from the Candle to The Dark."""
    return _burned(state, ev.CardBurned(seat=event.seat, card=event.card))


def _resolved(state: Playing, event: ev.ActionResolved) -> Playing:
    """The action is done; its card (if not a ghost now) goes to The Dark."""
    return _off_table(state)


def _discarded(state: Any, event: ev.CardDiscarded) -> Any:
    """A card from hand to The Dark."""
    state = with_player(state, event.seat, hand=_without(state.players[event.seat].hand,
                                                         event.card))
    return replace(state, dark=(event.card, *state.dark))


def _ritual_done(state: Playing, event: ev.RitualDone) -> Playing:
    """The turn moves on to the Burden."""
    return _with_turn(state, event.seat, phase="burden")


def _ended(state: Playing, event: ev.TurnEnded) -> Playing:
    """The seat's turn is over."""
    return replace(state, turns=tuple(t for t in state.turns if t.seat != event.seat))


def _fallen(state: Any, event: ev.SeatFallen) -> Any:
    """The seat is out; everything it had goes face up to The Dark; its turn is over."""
    state = with_player(state, event.seat, candle=(), hand=(), shadow=(), fate=event.fate,
                        before=event.before)
    turns = tuple(t for t in state.turns if t.seat != event.seat)
    sights = tuple(s for s in state.sights if event.seat not in (s.looker, s.target))
    return replace(state, dark=(*reversed(event.revealed), *state.dark), turns=turns,
                   sights=sights, fallen=state.fallen + 1)


def _closed(state: Any, event: ev.CircleClosed) -> Over:
    """The match is over; a card still on the table goes to The Dark."""
    return become(Over, _off_table(state), winners=event.winners, turns=())


def _unchanged(state: Any, _: Any) -> Any:
    """An event that only tells what happened."""
    return state


def _ignited_note(state: Playing, seat: int) -> Playing:
    """The Pyromaniac's power is spent this turn."""
    return _with_turn(state, seat, ignited=True)


def _with_turn(state: Playing, seat: int, **changes: Any) -> Playing:
    """The state with one turn's fields changed."""
    turns = tuple(replace(t, **changes) if t.seat == seat else t for t in state.turns)
    return replace(state, turns=turns)


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The cards with one taken out."""
    kept = list(cards)
    kept.remove(card)
    return tuple(kept)


def _declared_and_noted(state: Playing, event: ev.ActionDeclared) -> Playing:
    """An Ignite also spends the Pyromaniac's power for the turn."""
    after = _declared(state, event)
    if isinstance(event.action, Ignite):
        return _ignited_note(after, event.seat)
    return after


_RECORDERS: dict[type, Callable[[Any, Any], Any]] = {
    ev.CircleFormed: _formed,
    ev.CardsDrawn: _drawn,
    ev.ClassesOffered: _offered,
    ev.ClassChosen: _chosen,
    ev.RoundBegan: _round,
    ev.StepBegan: _step,
    ev.TurnBegan: _turn,
    ev.CardBurned: _burned,
    ev.ActionDeclared: _declared_and_noted,
    ev.ReactionAwaited: _awaited,
    ev.SaltThrown: _salted,
    ev.Allowed: _allowed,
    ev.HauntCancelled: _haunt_cancelled,
    ev.ActionCancelled: _cancelled,
    ev.ActionRetargeted: _retargeted,
    ev.Haunted: _haunted,
    ev.GhostRisen: _risen,
    ev.HandSeen: _seen,
    ev.CardsScared: _scared,
    ev.CandleDrained: _drained,
    ev.CardClaimed: _claimed,
    ev.GhostBanished: _banished,
    ev.GhostRecalled: _recalled,
    ev.GhostPossessed: _possessed,
    ev.CandleRekindled: _rekindled,
    ev.ShadowsSwapped: _swapped,
    ev.DarkTaken: _dark_taken,
    ev.PanicFlipped: _flipped,
    ev.EffectFizzled: _unchanged,
    ev.ActionResolved: _resolved,
    ev.CardDiscarded: _discarded,
    ev.RitualDone: _ritual_done,
    ev.TurnEnded: _ended,
    ev.SeatFallen: _fallen,
    ev.CircleClosed: _closed,
}
