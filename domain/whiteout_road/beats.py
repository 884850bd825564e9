"""A beat (R4): flip Fate, all play a card face down, the snow drifts; the end checked each step."""

from __future__ import annotations

from domain.core.errors import BrokenInvariant
from domain.whiteout_road.cards import WHITEOUT, is_king, is_spade, pips, wagon_for
from domain.whiteout_road.endings import TOWN, arrived, buried, last_watch, whiteout
from domain.whiteout_road.events import (
    CardFed,
    Commitment,
    FateFlipped,
    KingRoared,
    LoadMissed,
    PlaysCalled,
    SnowDrifted,
    StoreLoaded,
    TrailBroken,
    WagonPushed,
)
from domain.whiteout_road.evolve import Steps
from domain.whiteout_road.legal import TRAIL_SPACES
from domain.whiteout_road.state import Cart, holders

COLD_SNAP = 3
FULL_PIPS_UP_TO = 2
EMPTY_WAGON_STOP = 5


def begin_beat(steps: Steps) -> None:
    """Step 1: flip Fate; unless that ends the night, step 2 calls on every seat holding cards."""
    board = steps.state.board
    if not board.fate:
        raise BrokenInvariant("the Fate deck ran out during the beats")
    card = board.fate[0]
    if card == WHITEOUT:
        steps.then(FateFlipped(card=card))
        whiteout(steps)
        return
    if is_spade(card):
        steps.then(FateFlipped(card=card, snow=board.snow + COLD_SNAP))
        if buried(steps, "buried"):
            return
    else:
        cart = board.wagon(wagon_for(card))
        steps.then(FateFlipped(card=card, wagon=cart.name, position=rolled(cart)))
        if arrived(steps, "through"):
            return
    steps.then(PlaysCalled(seats=holders(steps.state)))


def rolled(cart: Cart) -> int:
    """Where a wagon stands after rolling one space: an empty wagon stops at 5, Town is 6."""
    return min(cart.position + 1, TOWN if cart.laden else EMPTY_WAGON_STOP)


def resolve_beat(steps: Steps) -> None:
    """Step 2's revealed plays in R4's order, then the checks, step 3 and the next beat."""
    plays = steps.state.board.revealed
    laden_before = {cart.name for cart in steps.state.board.wagons if cart.laden}
    for play in _of(plays, "load"):
        load(steps, play, wagon_for(play.card) in laden_before)
    for play in _of(plays, "push"):
        push(steps, play)
    for play in _of(plays, "break_trail"):
        break_trail(steps, play)
    for play in _of(plays, "feed"):
        steps.then(CardFed(seat=play.seat, card=play.card))
    if arrived(steps, "through"):
        return
    drift(steps, plays)
    if buried(steps, "buried"):
        return
    if not holders(steps.state):
        last_watch(steps)
        return
    begin_beat(steps)


def _of(plays: tuple[Commitment, ...], kind: str) -> list[Commitment]:
    """The revealed plays of one kind, in seat order."""
    return sorted((play for play in plays if play.play == kind), key=lambda play: play.seat)


def load(steps: Steps, play: Commitment, laden_before: bool) -> None:
    """Full pips on 0 to 2; on 3 to 5 only a wagon laden before the reveal catches half pips."""
    cart = steps.state.board.wagon(wagon_for(play.card))
    if cart.position <= FULL_PIPS_UP_TO:
        caught = pips(play.card)
    elif laden_before:
        caught = pips(play.card) // 2
    else:
        steps.then(LoadMissed(seat=play.seat, card=play.card, wagon=cart.name))
        return
    steps.then(StoreLoaded(seat=play.seat, card=play.card, wagon=cart.name, pips=caught))


def push(steps: Steps, play: Commitment) -> None:
    """The card lies sideways by its wagon, which rolls one space (an empty one stops at 5)."""
    cart = steps.state.board.wagon(wagon_for(play.card))
    steps.then(WagonPushed(seat=play.seat, card=play.card, wagon=cart.name, position=rolled(cart)))


def break_trail(steps: Steps, play: Commitment) -> None:
    """A spade shovels a laden wagon from 3 to 4 or 4 to 5; a wagon that has left 3 and 4 stays."""
    assert play.wagon is not None
    cart = steps.state.board.wagon(play.wagon)
    moves = cart.laden and cart.position in TRAIL_SPACES
    position = cart.position + 1 if moves else None
    steps.then(TrailBroken(seat=play.seat, card=play.card, wagon=cart.name, position=position))


def drift(steps: Steps, plays: tuple[Commitment, ...]) -> None:
    """Step 3: the snow drifts 1 per player who did not feed; then each fed King roars it back 1."""
    by = sum(play.play != "feed" for play in plays)
    steps.then(SnowDrifted(by=by, snow=steps.state.board.snow + by))
    for play in _of(plays, "feed"):
        if is_king(play.card):
            snow = max(0, steps.state.board.snow - 1)
            steps.then(KingRoared(seat=play.seat, card=play.card, snow=snow))
