"""What a seat may do now: the single source decide, the views and the API agree with.

Every candidate is built from the seat's own cards and the table, and kept only if the rules'
own check (checks.py) accepts it, so decide and legal_actions cannot disagree.
"""

from __future__ import annotations

from domain.core import reactions
from domain.core.errors import RuleViolation
from domain.core.templates import ChooseCards, Template
from domain.deathwick import cards
from domain.deathwick.checks import check_action
from domain.deathwick.classes import PYROMANIAC, hand_limit
from domain.deathwick.commands import (
    Action,
    Banish,
    CastCard,
    ChooseClass,
    Command,
    DiscardCard,
    DiscardCards,
    Haunt,
    Ignite,
    Panic,
    PassRitual,
)
from domain.deathwick.grimoire import spell_of
from domain.deathwick.state import (
    Circle,
    Drafting,
    Playing,
    State,
    Turn,
    Unformed,
    living,
    neighbours,
)
from domain.deathwick.windows import answers


def to_act(state: State | Unformed) -> tuple[int, ...]:
    """The window's seat while one is open; else the draft's undecided seats, or the seats whose
    turn is under way (their Ritual or Burden owed)."""
    if isinstance(state, Drafting):
        return tuple(s for s, p in enumerate(state.players) if p.alive and p.curse is None)
    if not isinstance(state, Playing):
        return ()
    waiting = reactions.answering(state.windows)
    if waiting:
        return waiting
    return tuple(sorted(turn.seat for turn in state.turns))


def legal_actions(state: State | Unformed, seat: int) -> list[Command]:
    """Every complete command the seat may send now."""
    if seat not in to_act(state) or not isinstance(state, Drafting | Playing):
        return []  # to_act is empty in any other phase
    if isinstance(state, Drafting):
        return [ChooseClass(name=name) for name in state.players[seat].offer]
    if reactions.answering(state.windows):
        return list(answers(state, seat))
    turn = next(turn for turn in state.turns if turn.seat == seat)
    if turn.phase == "burden":
        return [DiscardCard(card=code) for code in cards.distinct(state.players[seat].hand)]
    return [action for action in candidates(state, seat, turn) if _fits(state, seat, turn, action)]


def offer(state: State | Unformed, seat: int) -> list[Command | Template]:
    """The legal actions as a client is offered them: a Burden of more than one card over the
    limit as one template (choose that many of the hand, sent as one discard_cards), not a card
    at a time; everything else as legal_actions lists it."""
    actions = legal_actions(state, seat)
    if not actions or not all(isinstance(a, DiscardCard) for a in actions):
        return [*actions]
    player = state.players[seat]  # type: ignore[union-attr]  # a Burden is owed: Playing
    over = len(player.hand) - hand_limit(player.curse)
    if over < 2:
        return [*actions]
    hand = tuple(sorted(cards.code(card) for card in player.hand))
    return [Template(command=DiscardCards(cards=hand[:over]),
                     choose=ChooseCards(field="cards", count=over, among=hand),
                     label=f"Discard {over} cards of your choice, down to your hand limit")]


def _fits(state: Circle, seat: int, turn: Turn, action: Action) -> bool:
    """Whether the rules accept the action."""
    try:
        check_action(state, seat, turn, action)
    except RuleViolation:
        return False
    return True


def candidates(state: Circle, seat: int, turn: Turn) -> list[Action]:
    """Actions worth checking: each card of the hand in each way it may be played."""
    player = state.players[seat]
    near = neighbours(state, seat)
    mine = cards.distinct(tuple(g.card for g in player.shadow))
    found: list[Action] = []
    for code in cards.distinct(player.hand):
        found += [Haunt(card=code, target=t) for t in near]
        found += _casts(state, seat, code, near, mine)
        found += [Banish(card=code, ghost=ghost) for ghost in mine]
    found += [Panic(ghost=ghost) for ghost in mine]
    if player.curse == PYROMANIAC and not turn.ignited:
        found += [Ignite(card=code, target=t) for code in cards.distinct(player.hand) for t in near]
    return [*dict.fromkeys(found), PassRitual()]


def _casts(state: Circle, seat: int, code: str, near: tuple[int, ...],
           mine: list[str]) -> list[Action]:
    """The ways to Cast one card: what its rank's Grimoire record says a Cast names."""
    spell = spell_of(cards.codes().index(code))
    match spell.target:
        case "none":
            return [CastCard(card=code)]
        case "choice":
            return [CastCard(card=code, choice=choice) for choice in spell.choices]
        case "neighbour":
            return [CastCard(card=code, target=t) for t in near]
        case "own_ghost":
            return [CastCard(card=code, ghost=ghost) for ghost in mine]
        case "any_ghost":
            return _recalls(state, seat, code)
        case "ghost_to_player":
            others = [s for s in living(state) if s != seat]
            return [CastCard(card=code, target=t, ghost=ghost) for t in others for ghost in mine]
    return []  # never Cast


def _recalls(state: Circle, seat: int, code: str) -> list[Action]:
    """A ghost from any Shadow (your own with no target)."""
    found: list[Action] = []
    for owner in living(state):
        ghosts = cards.distinct(tuple(g.card for g in state.players[owner].shadow))
        target = None if owner == seat else owner
        found += [CastCard(card=code, target=target, ghost=ghost) for ghost in ghosts]
    return found
