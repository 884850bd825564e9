"""A declared action's way to its end (D8, D3): the reaction windows, then cancel or resolve.

A targeted action opens a window for its target (``reaction_prompts`` = always, or only when the
target can answer); a Salt opens one for the other side, to any depth, through the shared
windows of domain.core.reactions. The last Salt decides: the defender's cancels the action and
ends the attacker's turn, the attacker's (or an allow) lets it through, and it resolves
(``carry_out``, with the effects of effects.py). The Watcher's Sight then turns to the other
neighbour and opens a window again (DH2), which is why the whole circle lives in this module.
"""

from __future__ import annotations

from domain.core.errors import RuleViolation
from domain.core.reactions import Allow, top
from domain.core.rng import Rng
from domain.core.steps import Steps
from domain.deathwick import cards
from domain.deathwick.classes import HEX, UNSEEN
from domain.deathwick.commands import (
    Action,
    Answer,
    Banish,
    CancelHaunt,
    CastCard,
    Haunt,
    Ignite,
    Panic,
    ThrowSalt,
)
from domain.deathwick.effects import Effect, banish, haunt, ignite, nothing, panic
from domain.deathwick.events import (
    ActionCancelled,
    ActionResolved,
    ActionRetargeted,
    Allowed,
    HauntCancelled,
    ReactionAwaited,
    SaltThrown,
)
from domain.deathwick.flow import end_ritual, settle
from domain.deathwick.grimoire import spell_of
from domain.deathwick.state import Circle, Declared, Over, Playing, turn_of


def open_or_resolve(steps: Steps, rng: Rng) -> None:
    """After an action is declared: its target's window, or at once when it targets no one."""
    declared: Declared = steps.state.declared
    if declared.target is None:
        carry_out(steps, rng)
    else:
        await_or_conclude(steps, declared.target, None, rng)


def await_or_conclude(steps: Steps, seat: int, salt_by: int | None, rng: Rng) -> None:
    """D8: a window for the seat, unless prompts are only when able and it cannot answer."""
    state: Playing = steps.state
    if state.prompts == "always" or can_answer(state, seat):
        steps.then(ReactionAwaited(seat=seat, salt_by=salt_by))
    else:
        conclude(steps, salt_by, rng)


def turn_to(steps: Steps, seat: int, rng: Rng) -> None:
    """The Watcher's Sight, seen through once, turns to the other neighbour (DH2)."""
    steps.then(ActionRetargeted(seat=steps.state.declared.seat, target=seat))
    await_or_conclude(steps, seat, None, rng)


def can_answer(state: Circle, seat: int) -> bool:
    """Whether the seat holds a Salt or has a class reaction it may use now."""
    hand = state.players[seat].hand
    return any(cards.rank(card) == cards.SALT for card in hand) or bool(cancel_cards(state, seat))


def answers(state: Circle, seat: int) -> list[Answer]:
    """The seat's answers to its window: each Salt it holds, its class reactions, allow."""
    hand = state.players[seat].hand
    salts = [ThrowSalt(card=code) for code in cards.distinct(hand) if code.startswith("5")]
    cancels = [CancelHaunt(card=code) for code in cancel_cards(state, seat)]
    return [*salts, *cancels, Allow()]


def cancel_cards(state: Circle, seat: int) -> list[str]:
    """D3: the cards the Unseen (any) or the Hex (the Haunt's rank) may cancel a Haunt with,
    once per attacker's turn, answering a neighbour's Haunt on itself."""
    declared = state.declared
    player = state.players[seat]
    if declared is None or declared.target != seat or not isinstance(declared.action, Haunt):
        return []
    turn = turn_of(state, declared.seat)
    if turn is None or turn.number in player.cancels or declared.card is None:
        return []
    if player.curse == UNSEEN:
        return cards.distinct(player.hand)
    if player.curse == HEX and cards.is_number(declared.card):
        rank = cards.rank(declared.card)
        return cards.distinct(tuple(c for c in player.hand if cards.rank(c) == rank))
    return []


def answer(steps: Steps, seat: int, reply: Answer, rng: Rng) -> None:
    """Record a seat's answer to its window and carry on from it."""
    state: Playing = steps.state
    if reply not in answers(state, seat):
        raise RuleViolation(_why_not(state, seat, reply))
    declared = state.declared
    assert declared is not None and declared.target is not None
    match reply:
        case ThrowSalt():
            card = cards.copies(state.players[seat].hand, reply.card)[0]
            steps.then(SaltThrown(seat=seat, card=card))
            other = declared.seat if seat == declared.target else declared.target
            await_or_conclude(steps, other, seat, rng)
        case CancelHaunt():
            card = cards.copies(state.players[seat].hand, reply.card)[0]
            power = state.players[seat].curse or ""
            steps.then(HauntCancelled(seat=seat, card=card, power=power))
            cancel(steps, declared.seat)
        case Allow():
            window = top(state.windows)
            assert window is not None
            steps.then(Allowed(seat=seat))
            conclude(steps, window.effect.salt_by, rng)


def conclude(steps: Steps, last_salt: int | None, rng: Rng) -> None:
    """The chain is over: the defender's Salt last cancels; otherwise the action resolves."""
    declared: Declared = steps.state.declared
    if last_salt is not None and last_salt == declared.target:
        cancel(steps, declared.seat)
        return
    carry_out(steps, rng)


def carry_out(steps: Steps, rng: Rng) -> None:
    """Resolve the declared action, then the Ritual ends (an Ignite leaves it open)."""
    declared: Declared = steps.state.declared
    seat, action = declared.seat, declared.action
    effect_of(action)(steps, declared, rng)
    if isinstance(steps.state, Over):
        return
    if declared.also is not None and steps.state.players[declared.also].alive:
        turn_to(steps, declared.also, rng)  # the Watcher's Sight: the other neighbour next
        return
    steps.then(ActionResolved(seat=seat))
    settle(steps, seat)
    if not isinstance(action, Ignite):
        end_ritual(steps, seat)


def effect_of(action: Action) -> Effect:
    """The resolution of an action."""
    match action:
        case Haunt():
            return haunt
        case CastCard():
            effect = spell_of(cards.codes().index(action.card)).effect
            assert effect is not None  # checks.py lets no Salt be Cast
            return effect
        case Banish():
            return banish
        case Panic():
            return panic
        case Ignite():
            return ignite
    return nothing


def cancel(steps: Steps, attacker: int) -> None:
    """The action is cancelled, its card to The Dark; the attacker's turn ends (the Burden and
    Am I Alive still follow it: DH1)."""
    steps.then(ActionCancelled(seat=attacker))
    end_ritual(steps, attacker)


def _why_not(state: Circle, seat: int, reply: Answer) -> str:
    """Why an answer is refused."""
    if isinstance(reply, ThrowSalt):
        return f"you hold no Salt {reply.card} (a Salt is a 5)"
    if isinstance(reply, CancelHaunt):
        return ("you cannot cancel this Haunt: the Unseen discards any card, the Hex reveals one "
                "of the Haunt's rank, once per attacker's turn, against a Haunt on themselves")
    return "allow is always possible in your window"
