"""What one seat, or a spectator, may see of the circle (D11): the only way state leaves the rules.

Public: classes and offers, Candle sizes, hand sizes, every Shadow with each ghost's origin, The
Dark top first, the action on the table and its windows. Private: your own hand and your Sight
snapshots. No Candle's cards or order are ever shown, not even to its owner.
"""

from __future__ import annotations

import msgspec

from domain.core import reactions
from domain.core.errors import BrokenInvariant
from domain.deathwick import cards
from domain.deathwick.commands import Command
from domain.deathwick.labels import action_text
from domain.deathwick.legal import legal_actions
from domain.deathwick.state import (
    Circle,
    Drafting,
    Ghost,
    Over,
    State,
    Unformed,
    left_of,
    right_of,
)


class DeathwickGhostView(msgspec.Struct, frozen=True, kw_only=True):
    """A ghost: its card, who put it there, from which side (the split Shadow), its binding."""

    card: str
    by: int | None
    side: str  # "left", "right", "far", "self", or "single" in a two-seat circle
    bound: str | None


class DeathwickPlayerView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as everyone sees it."""

    seat: int
    name: str
    you: bool
    alive: bool
    fate: str | None
    curse: str | None
    offer: tuple[str, ...]
    candle: int
    hand: int
    shadow: tuple[DeathwickGhostView, ...]
    left: int
    right: int


class DeathwickTurnView(msgspec.Struct, frozen=True, kw_only=True):
    """A turn under way in this step, and where in it."""

    seat: int
    number: int
    phase: str


class DeathwickSightView(msgspec.Struct, frozen=True, kw_only=True):
    """A Sight's snapshot of a hand, on the looker's screen only."""

    target: int
    cards: tuple[str, ...]


class DeathwickPendingView(msgspec.Struct, frozen=True, kw_only=True):
    """The action on the table, its windows' depth and who must answer now."""

    seat: int
    text: str
    card: str | None
    target: int | None
    depth: int
    answering: tuple[int, ...]
    salts_by: tuple[int, ...]


class DeathwickResultView(msgspec.Struct, frozen=True, kw_only=True):
    """How the match ended."""

    winners: tuple[int, ...]


class DeathwickView(msgspec.Struct, tag="deathwick", frozen=True, kw_only=True):
    """The circle from one seat (``you``) or from the gallery (``you`` is None)."""

    you: int | None
    phase: str
    ritual: str
    reaction_prompts: str
    round: int
    step: int
    arcs: tuple[tuple[int, ...], ...]
    turns: tuple[DeathwickTurnView, ...]
    players: tuple[DeathwickPlayerView, ...]
    dark: tuple[str, ...]
    hand: tuple[str, ...]
    sights: tuple[DeathwickSightView, ...]
    pending: DeathwickPendingView | None
    result: DeathwickResultView | None
    legal_actions: tuple[Command, ...]


def observe(state: State | Unformed, seat: int | None) -> DeathwickView:
    """The view of one seat (None for a spectator): the public part, then the seat's own."""
    if isinstance(state, Unformed):
        raise BrokenInvariant("nothing is on the table before the circle forms")
    public = _public(state)
    return public if seat is None else observe_over(state, public, seat)


def observe_over(state: State | Unformed, public: DeathwickView, seat: int) -> DeathwickView:
    """A seat's view made from the spectator's view of the same state (``Rulebook.observe_over``:
    a feed shapes one update per seat from one state, so the public part is built once)."""
    if isinstance(state, Unformed):
        raise BrokenInvariant("nothing is on the table before the circle forms")
    players = list(public.players)
    players[seat] = msgspec.structs.replace(players[seat], you=True)
    return msgspec.structs.replace(
        public, you=seat, players=tuple(players),
        hand=tuple(cards.code(c) for c in state.players[seat].hand),
        sights=_sights(state, seat), legal_actions=tuple(legal_actions(state, seat)),
    )


def _public(state: Circle) -> DeathwickView:
    """The spectator's view: what every viewer of ``state`` is shown alike."""
    phase = "draft" if isinstance(state, Drafting) else "over" if isinstance(state, Over) \
        else "play"
    players = tuple(_player(state, other, None) for other in range(len(state.players)))
    return DeathwickView(
        you=None,
        phase=phase,
        ritual=state.ritual,
        reaction_prompts=state.prompts,
        round=state.round,
        step=state.step,
        arcs=state.arcs,
        turns=tuple(DeathwickTurnView(seat=t.seat, number=t.number, phase=t.phase)
                    for t in state.turns),
        players=players,
        dark=tuple(cards.code(card) for card in state.dark),
        hand=(),
        sights=(),
        pending=_pending(state),
        result=DeathwickResultView(winners=state.winners) if isinstance(state, Over) else None,
        legal_actions=(),
    )


def _player(state: Circle, seat: int, viewer: int | None) -> DeathwickPlayerView:
    """One seat's public face."""
    player = state.players[seat]
    return DeathwickPlayerView(
        seat=seat, name=state.names[seat], you=seat == viewer, alive=player.alive,
        fate=player.fate, curse=player.curse, offer=player.offer, candle=len(player.candle),
        hand=len(player.hand), shadow=tuple(_ghost(state, seat, g) for g in player.shadow),
        left=left_of(state, seat), right=right_of(state, seat),
    )


def _ghost(state: Circle, owner: int, ghost: Ghost) -> DeathwickGhostView:
    """A ghost with the side of the split Shadow it lies on."""
    return DeathwickGhostView(card=cards.code(ghost.card), by=ghost.by,
                              side=side(state, owner, ghost.by),
                     bound=ghost.bound)


def side(state: Circle, owner: int, by: int | None) -> str:
    """Which side of the owner's Shadow a ghost put there by ``by`` lies on."""
    if len(state.players) == 2:
        return "single"
    if by == owner:
        return "self"
    if by == left_of(state, owner):
        return "left"
    return "right" if by == right_of(state, owner) else "far"


def _sights(state: Circle, seat: int | None) -> tuple[DeathwickSightView, ...]:
    """The viewer's own Sight snapshots."""
    if seat is None:
        return ()
    return tuple(DeathwickSightView(target=s.target, cards=tuple(cards.code(c) for c in s.cards))
                 for s in state.sights if s.looker == seat)


def _pending(state: Circle) -> DeathwickPendingView | None:
    """The declared action waiting on its windows, if any."""
    declared = state.declared
    if declared is None:
        return None
    salts = tuple(w.effect.salt_by for w in state.windows.windows if w.effect.salt_by is not None)
    return DeathwickPendingView(
        seat=declared.seat, text=action_text(state.names, declared.seat, declared.action),
        card=None if declared.card is None else cards.code(declared.card), target=declared.target,
        depth=reactions.depth(state.windows), answering=reactions.answering(state.windows),
        salts_by=salts,
    )
