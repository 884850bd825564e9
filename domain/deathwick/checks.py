"""Checking one Ritual action against the rules (D3, D6): its card, target and ghost, or a
RuleViolation a player understands. decide and legal_actions both go through here; what a Cast
must name is read from its rank's record in the Grimoire (grimoire.py)."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.core.errors import RuleViolation
from domain.deathwick import cards
from domain.deathwick.classes import (
    CLOWN,
    GATEKEEPER,
    OCCULTIST,
    PYROMANIAC,
    WARLOCK,
    WATCHER,
)
from domain.deathwick.commands import Action, Banish, CastCard, Haunt, Ignite, Panic, PassRitual
from domain.deathwick.grimoire import Spell, spell_of
from domain.deathwick.state import Circle, Ghost, Turn, living, neighbours


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    """A checked action: the card it plays, the seat whose window it opens, the ghost it names."""

    card: int | None = None
    target: int | None = None
    ghost: int | None = None  # index in the Shadow named
    also: int | None = None


def check_action(state: Circle, seat: int, turn: Turn, action: Action) -> Plan:
    """The plan of a legal action, or a RuleViolation naming what is wrong."""
    match action:
        case Haunt():
            return check_haunt(state, seat, action)
        case CastCard():
            return check_cast(state, seat, action)
        case Banish():
            return check_banish(state, seat, action)
        case Panic():
            return check_panic(state, seat, action)
        case Ignite():
            return check_ignite(state, seat, turn, action)
        case PassRitual():
            return Plan()
    raise RuleViolation(f"{type(action).__name__} is not a Ritual action")


def held(state: Circle, seat: int, code: str) -> int:
    """A card of this code in the seat's hand (copies are alike), or a RuleViolation."""
    if code not in cards.codes():
        raise RuleViolation(f"{code!r} is not a card (write '7H', 'AS', '10D', 'KC', 'JOKER')")
    found = cards.copies(state.players[seat].hand, code)
    if not found:
        raise RuleViolation(f"you hold no {code}")
    return found[0]


def check_neighbour(state: Circle, seat: int, target: int | None) -> int:
    """The target is one of the seat's living neighbours."""
    if target is None:
        raise RuleViolation("choose a neighbour as the target")
    if target not in neighbours(state, seat):
        near = " or ".join(f"{state.names[s]} (seat {s})" for s in neighbours(state, seat))
        raise RuleViolation(f"you may only target a neighbour: {near}")
    return target


def check_haunt(state: Circle, seat: int, action: Haunt) -> Plan:
    """D6: a number card (the Warlock: a face card too) into a neighbour's Shadow."""
    card = held(state, seat, action.card)
    if cards.rank(card) == 0:
        raise RuleViolation("a joker is never a ghost; Cast it for BOO!")
    if cards.is_face(card) and state.players[seat].curse != WARLOCK:
        raise RuleViolation("only the Warlock Haunts with a face card; Haunt with an ace to 10")
    return Plan(card=card, target=check_neighbour(state, seat, action.target))


def check_cast(state: Circle, seat: int, action: CastCard) -> Plan:
    """D6: the Grimoire effect of the card's rank, with what that effect names (grimoire.py)."""
    card = held(state, seat, action.card)
    spell = spell_of(card)
    if spell.target == "never":
        raise RuleViolation(f"{spell.name} is only a reaction: keep it for when you are targeted")
    if not spell.choices and action.choice is not None:
        raise RuleViolation("only the Medium (a queen) makes a choice")
    if not spell.names_ghost and action.ghost is not None:
        raise RuleViolation(f"{spell.name} names no ghost")
    if spell.target in ("none", "choice"):
        return _untargeted(card, spell, action)
    if spell.target == "neighbour":
        return _on_neighbour(state, seat, card, spell, action)
    return _with_ghost(state, seat, card, spell, action)


def _untargeted(card: int, spell: Spell, action: CastCard) -> Plan:
    """Greed, Rekindle, Purge, BOO! and the Medium choose no seat (the Medium: a choice)."""
    if action.target is not None:
        raise RuleViolation(f"{spell.name} chooses no seat; send no target")
    if spell.choices and action.choice not in spell.choices:
        raise RuleViolation("the Medium chooses 'hand' (the top card of The Dark to your hand) "
                            "or 'candle' (the top 2 onto your Candle)")
    return Plan(card=card)


def _on_neighbour(state: Circle, seat: int, card: int, spell: Spell, action: CastCard) -> Plan:
    """Sight, Scare, Drain, Claim and Mirror choose a neighbour (Mirror: not the Gatekeeper)."""
    target = check_neighbour(state, seat, action.target)
    if spell.gatekeeper_immune:
        check_not_gatekeeper(state, target, spell.name)
    also = None
    if spell.watcher_sees_both and state.players[seat].curse == WATCHER:
        others = [s for s in neighbours(state, seat) if s != target]
        also = others[0] if others else None
    return Plan(card=card, target=target, also=also)


def check_not_gatekeeper(state: Circle, target: int, power: str) -> None:
    """D3 and the FAQ: the Gatekeeper cannot be chosen by Mirror or Possess; the card stays."""
    if state.players[target].curse == GATEKEEPER:
        raise RuleViolation(f"{state.names[target]} is the Gatekeeper: {power} cannot choose "
                            "them (blocked; your card is not spent)")


def _with_ghost(state: Circle, seat: int, card: int, spell: Spell, action: CastCard) -> Plan:
    """Cleanse, Recall and Possess name a ghost."""
    if action.ghost is None:
        raise RuleViolation(f"{spell.name} names a ghost (its card, like '7C')")
    if spell.target == "own_ghost":
        if action.target is not None:
            raise RuleViolation(f"{spell.name} chooses no seat: it destroys a ghost of your own "
                                "Shadow")
        return Plan(card=card, ghost=_ghost(state, seat, spell, action.ghost))
    if spell.target == "any_ghost":
        return _recall(state, seat, card, spell, action)
    return _possess(state, seat, card, spell, action)


def _recall(state: Circle, seat: int, card: int, spell: Spell, action: CastCard) -> Plan:
    """Recall: a ghost from any Shadow (not one the Sealbinder or the Clown Haunted)."""
    if action.target == seat:
        raise RuleViolation(f"send no target to {spell.name} from your own Shadow")
    owner = seat if action.target is None else action.target
    if owner not in living(state):
        raise RuleViolation("recall from the Shadow of a player still in the circle")
    index = _ghost(state, owner, spell, action.ghost or "")
    return Plan(card=card, ghost=index, target=None if owner == seat else owner)


def _possess(state: Circle, seat: int, card: int, spell: Spell, action: CastCard) -> Plan:
    """Possess: a ghost of your Shadow to a neighbour's (the Occultist: anyone's)."""
    if spell.occultist_reaches_all and state.players[seat].curse == OCCULTIST:
        if action.target is None or action.target == seat or action.target not in living(state):
            raise RuleViolation("choose another player still in the circle")
        target = action.target
    else:
        target = check_neighbour(state, seat, action.target)
    if spell.gatekeeper_immune:
        check_not_gatekeeper(state, target, spell.name)
    index = _ghost(state, seat, spell, action.ghost or "")
    return Plan(card=card, ghost=index, target=target)


def _ghost(state: Circle, owner: int, spell: Spell, code: str) -> int:
    """The ghost a Cast names in the owner's Shadow: any, or (``bound_ghosts_stay``) not one the
    Sealbinder or the Clown Haunted ('... cannot be Recalled', '... Possessed')."""
    if not spell.bound_ghosts_stay:
        return ghost_index(state, owner, code, lambda g: True)
    return ghost_index(state, owner, code, lambda g: g.bound is None,
                       f"the Sealbinder's and the Clown's ghosts cannot be {spell.name}ed")


def ghost_index(state: Circle, owner: int, code: str, eligible: Callable[[Ghost], bool],
                why: str = "") -> int:
    """The first ghost of this card in the owner's Shadow that ``eligible`` accepts."""
    shadow = state.players[owner].shadow
    named = [i for i, g in enumerate(shadow) if cards.code(g.card) == code]
    if not named:
        raise RuleViolation(f"there is no {code} ghost in {state.names[owner]}'s Shadow")
    fits = [i for i in named if eligible(shadow[i])]
    if not fits:
        raise RuleViolation(why or f"that {code} ghost cannot be chosen")
    return fits[0]


def check_banish(state: Circle, seat: int, action: Banish) -> Plan:
    """D6: a card that meets or beats the ghost (D2); the Clown's only by a face card."""
    card = held(state, seat, action.card)
    if cards.rank(card) == 0:
        raise RuleViolation("a joker cannot Banish")

    def fits(ghost: Ghost) -> bool:
        return cards.meets(card, ghost.card) and (ghost.bound != CLOWN or cards.is_face(card))

    index = ghost_index(state, seat, action.ghost, fits,
                        f"the {action.card} does not meet or beat that ghost (value, then suit "
                        "tier; the Clown's ghosts only by a face card)")
    return Plan(card=card, ghost=index)


def check_panic(state: Circle, seat: int, action: Panic) -> Plan:
    """D6: name a ghost of your Shadow (not the Clown's) with a card left in your Candle."""
    if not state.players[seat].candle:
        raise RuleViolation("your Candle is empty: there is no card to flip")
    index = ghost_index(state, seat, action.ghost, lambda g: g.bound != CLOWN,
                        "the Clown's ghosts leave only by a face-card Banish, a Purge or Cleanse")
    return Plan(ghost=index)


def check_ignite(state: Circle, seat: int, turn: Turn, action: Ignite) -> Plan:
    """D3: the Pyromaniac, once per turn, discards a card to make a neighbour Burn."""
    if state.players[seat].curse != PYROMANIAC:
        raise RuleViolation("only the Pyromaniac ignites")
    if turn.ignited:
        raise RuleViolation("the Pyromaniac ignites once per turn")
    card = held(state, seat, action.card)
    return Plan(card=card, target=check_neighbour(state, seat, action.target))
