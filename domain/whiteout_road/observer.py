"""What one seat, or a spectator, may see of the road (R11): the only way state leaves the rules.

Public: wagons (position, stores aboard with owner and card, pushes), snow, the burial mark, the
Fate discard and the Fate deck's size, watch-piles, scores, hand sizes, who has committed, lost
cards and the nights already paid.  Private to a seat: its hand and its own pending card.  Fate's
order, other hands and other pending cards never appear.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.core.errors import BrokenInvariant
from domain.whiteout_road.cards import SUIT_NAMES, SUIT_OF_WAGON, Wagon, in_order
from domain.whiteout_road.commands import Commit, Play
from domain.whiteout_road.events import Ending, Repayment
from domain.whiteout_road.legal import legal_actions
from domain.whiteout_road.outcome import outcome
from domain.whiteout_road.state import Board, Cart, Gambit, Over, State, Store, Unopened

Phase = Literal["beat", "gambit", "over"]


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    """One traveller as everyone sees them."""

    seat: int
    name: str
    you: bool
    hand_size: int
    committed: bool
    watch_pile: tuple[str, ...]
    score: int
    conceded: bool


class StoreView(msgspec.Struct, frozen=True, kw_only=True):
    """A card by a wagon and its owner; ``pips`` are the stores it counts for (0 for a push)."""

    seat: int
    card: str
    pips: int


class WagonView(msgspec.Struct, frozen=True, kw_only=True):
    """One wagon: its space (0 to 6; Town is 6), stores aboard, pushes, Gambit flings."""

    wagon: Wagon
    suit: str
    position: int
    laden: bool
    stores: tuple[StoreView, ...]
    pushes: tuple[StoreView, ...]
    flung: tuple[StoreView, ...]


class CommitmentView(msgspec.Struct, frozen=True, kw_only=True):
    """Your own pending card, face down to everyone else."""

    card: str
    play: Play
    wagon: Wagon | None


class NightView(msgspec.Struct, frozen=True, kw_only=True):
    """A finished night: how it ended, the wagon through (None: buried), each seat's repayment."""

    night: int
    ending: Ending
    through: Wagon | None
    repayment: tuple[Repayment, ...]


class WhiteoutResultView(msgspec.Struct, frozen=True, kw_only=True):
    """How the match ended: winners, gratitude per seat, placements."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    placements: tuple[int, ...]


class WhiteoutView(msgspec.Struct, tag="whiteout-road", frozen=True, kw_only=True):
    """The road from one seat (``you``) or from the roadside (``you`` is None)."""

    you: int | None
    night: int
    phase: Phase
    players: tuple[PlayerView, ...]
    hand: tuple[str, ...]
    commitment: CommitmentView | None
    wagons: tuple[WagonView, ...]
    snow: int
    burial_mark: int
    fate_discard: tuple[str, ...]
    fate_size: int
    lost: tuple[str, ...]
    nights: tuple[NightView, ...]
    result: WhiteoutResultView | None
    legal_actions: tuple[Commit, ...]


def observe(state: State | Unopened, seat: int | None) -> WhiteoutView:
    """The view of one seat (None for a spectator)."""
    if isinstance(state, Unopened):
        raise BrokenInvariant("nothing is on the table before the road opens")
    board = state.board or Board(night=0)
    result = outcome(state)
    return WhiteoutView(
        you=seat,
        night=board.night,
        phase=phase(state),
        players=tuple(_player(state, other, seat) for other in range(len(state.seats))),
        hand=() if seat is None else in_order(state.seats[seat].hand),
        commitment=_your_commitment(state, seat),
        wagons=tuple(_wagon(cart) for cart in board.wagons),
        snow=board.snow,
        burial_mark=state.road.burial_mark,
        fate_discard=board.fate_discard,
        fate_size=len(board.fate),
        lost=board.lost,
        nights=tuple(
            NightView(night=n.night, ending=n.ending, through=n.through, repayment=n.lines)
            for n in state.nights
        ),
        result=None if result is None else WhiteoutResultView(**msgspec.structs.asdict(result)),
        legal_actions=() if seat is None else tuple(legal_actions(state, seat)),
    )


def phase(state: State) -> Phase:
    """'gambit', 'over', else 'beat' (camp between nights is never seen at rest)."""
    if isinstance(state, Gambit):
        return "gambit"
    return "over" if isinstance(state, Over) else "beat"


def _player(state: State, seat: int, viewer: int | None) -> PlayerView:
    """One traveller's public face: never a card of the hand or the pending card."""
    traveller = state.seats[seat]
    return PlayerView(
        seat=seat,
        name=state.road.names[seat],
        you=seat == viewer,
        hand_size=len(traveller.hand),
        committed=traveller.pending is not None,
        watch_pile=traveller.watch,
        score=traveller.gratitude,
        conceded=traveller.conceded,
    )


def _your_commitment(state: State, seat: int | None) -> CommitmentView | None:
    """The viewer's own pending card; a spectator has none."""
    pending = None if seat is None else state.seats[seat].pending
    if pending is None:
        return None
    return CommitmentView(card=pending.card, play=pending.play, wagon=pending.wagon)


def _wagon(cart: Cart) -> WagonView:
    """One wagon, all public."""
    return WagonView(
        wagon=cart.name,
        suit=SUIT_NAMES[SUIT_OF_WAGON[cart.name]],
        position=cart.position,
        laden=cart.laden,
        stores=_stores(cart.stores),
        pushes=_stores(cart.pushes),
        flung=_stores(cart.flung),
    )


def _stores(cards: tuple[Store, ...]) -> tuple[StoreView, ...]:
    """Cards by a wagon with their owners."""
    return tuple(StoreView(seat=s.seat, card=s.card, pips=s.pips) for s in cards)
