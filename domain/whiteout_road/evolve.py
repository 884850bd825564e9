"""Recording events: a plain fold that never validates and never needs the generator; and the
game's decision steps, which fold each event as it is decided and carry the rules version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from domain.core import steps
from domain.whiteout_road.cards import WAGONS, pips
from domain.whiteout_road.events import (
    CardFed,
    CardFlung,
    Commitment,
    Event,
    FateFlipped,
    GambitCalled,
    GratitudePaid,
    KingRoared,
    LastWatchBegan,
    LoadMissed,
    NightDealt,
    NightEnded,
    PlayCommitted,
    PlaysCalled,
    PlaysRevealed,
    RoadEnded,
    RoadOpened,
    SeatConceded,
    SnowDrifted,
    SnowRose,
    StoreLoaded,
    TrailBroken,
    WagonPushed,
    WagonRolled,
    WatchKept,
)
from domain.whiteout_road.state import (
    Beat,
    Board,
    Camp,
    Gambit,
    NightResult,
    Over,
    Road,
    State,
    Store,
    Traveller,
    Unopened,
    become,
    replace,
    with_board,
    with_seat,
    with_wagon,
)
from domain.whiteout_road.versions import Ruleset


def evolve(state: State | Unopened, event: Event) -> State:
    """The state after one event."""
    return _RECORDERS[type(event)](state, event)


def _opened(_: Unopened, event: RoadOpened) -> Camp:
    """The table is set; nobody holds a card yet."""
    road = Road(
        names=event.names,
        burial_mark=event.burial_mark,
        hand_size=event.hand_size,
        practice_deal=event.practice_deal,
    )
    return Camp(road=road, seats=tuple(Traveller() for _ in event.names))


def _dealt(state: Camp, event: NightDealt) -> Beat:
    """A fresh night: new hands, empty watch-piles, wagons and snow at 0, a new Fate deck."""
    seats = tuple(
        Traveller(gratitude=t.gratitude, nights=t.nights, hand=hand, conceded=t.conceded)
        for t, hand in zip(state.seats, event.hands)
    )
    return become(Beat, state, seats=seats, board=Board(night=event.night, fate=event.fate))


def _flipped(state: Any, event: FateFlipped) -> Any:
    """The top Fate card goes to the discard; a wagon rolls or the snow falls as recorded."""
    board = state.board
    state = with_board(state, fate=board.fate[1:], fate_discard=(*board.fate_discard, event.card))
    if event.wagon is not None and event.position is not None:
        state = with_wagon(state, event.wagon, position=event.position)
    if event.snow is not None:
        state = with_board(state, snow=event.snow)
    return state


def _called(state: Beat, event: PlaysCalled) -> Beat:
    """These seats owe a card."""
    return replace(state, owing=event.seats)


def _committed(state: Beat | Gambit, event: PlayCommitted) -> Beat | Gambit:
    """The card leaves the hand face down; the seat owes nothing more."""
    pending = Commitment(seat=event.seat, card=event.card, play=event.play, wagon=event.wagon)
    hand = tuple(card for card in state.seats[event.seat].hand if card != event.card)
    state = with_seat(state, event.seat, hand=hand, pending=pending)
    return replace(state, owing=tuple(s for s in state.owing if s != event.seat))


def _revealed(state: Beat | Gambit, event: PlaysRevealed) -> Beat | Gambit:
    """Every pending card turns face up together."""
    for play in event.plays:
        state = with_seat(state, play.seat, pending=None)
    return with_board(state, revealed=event.plays)


def _take(state: Any, card: str) -> Any:
    """A revealed card leaves the middle of the table for where its play puts it."""
    return with_board(state, revealed=tuple(p for p in state.board.revealed if p.card != card))


def _loaded(state: Any, event: StoreLoaded) -> Any:
    """The card rides the wagon as its owner's stores."""
    state = _take(state, event.card)
    store = Store(seat=event.seat, card=event.card, pips=event.pips)
    return with_wagon(state, event.wagon, stores=(*state.board.wagon(event.wagon).stores, store))


def _missed(state: Any, event: LoadMissed) -> Any:
    """The card is lost."""
    return _lose(_take(state, event.card), event.card)


def _lose(state: Any, *cards: str) -> Any:
    """Cards out of play for the night."""
    return with_board(state, lost=(*state.board.lost, *cards))


def _pushed(state: Any, event: WagonPushed) -> Any:
    """The card lies sideways by its wagon, which stands where recorded."""
    state = _take(state, event.card)
    push = Store(seat=event.seat, card=event.card)
    pushes = (*state.board.wagon(event.wagon).pushes, push)
    return with_wagon(state, event.wagon, pushes=pushes, position=event.position)


def _broken(state: Any, event: TrailBroken) -> Any:
    """The spade is spent; the wagon moves if it did."""
    state = _lose(_take(state, event.card), event.card)
    if event.position is None:
        return state
    return with_wagon(state, event.wagon, position=event.position)


def _fed(state: Any, event: CardFed | WatchKept) -> Any:
    """The card goes into its owner's watch-pile."""
    state = _take(state, event.card)
    return with_seat(state, event.seat, watch=(*state.seats[event.seat].watch, event.card))


def _snow(state: Any, event: SnowDrifted | KingRoared | SnowRose) -> Any:
    """The snow stands where recorded."""
    return with_board(state, snow=event.snow)


def _gambit(state: Beat, event: GambitCalled) -> Gambit:
    """The Gambit: these seats owe one more card."""
    return become(Gambit, state, owing=event.seats)


def _flung(state: Gambit, event: CardFlung) -> Gambit:
    """The card lies on its wagon, racing."""
    state = _take(state, event.card)
    fling = Store(seat=event.seat, card=event.card, pips=pips(event.card))
    board = state.board
    assert board is not None  # a Gambit is played on tonight's board
    return with_wagon(state, event.wagon, flung=(*board.wagon(event.wagon).flung, fling))


def _rolled(state: Beat, event: WagonRolled) -> Beat:
    """The wagon stands where recorded."""
    return with_wagon(state, event.wagon, position=event.position)


def _ended(state: Beat | Gambit, event: NightEnded) -> Camp:
    """The night is over: flings on the through-wagon become stores, other flings are lost."""
    for name in WAGONS:
        board = state.board
        assert board is not None  # a night ends on its own board
        cart = board.wagon(name)
        if cart.flung and name == event.through:
            state = with_wagon(state, name, stores=(*cart.stores, *cart.flung), flung=())
        elif cart.flung:
            state = _lose(with_wagon(state, name, flung=()), *(f.card for f in cart.flung))
    state = with_board(state, ending=event.ending, through=event.through)
    return become(Camp, state)


def _paid(state: Camp, event: GratitudePaid) -> Camp:
    """Each seat's night total is added to its gratitude; the night's result is kept."""
    seats = tuple(
        replace(t, gratitude=t.gratitude + line.total, nights=(*t.nights, line.total))
        for t, line in zip(state.seats, event.lines)
    )
    board = state.board
    assert board is not None and board.ending is not None
    result = NightResult(
        night=event.night, ending=board.ending, through=board.through, lines=event.lines
    )
    return replace(state, seats=seats, nights=(*state.nights, result))


def _conceded(state: Any, event: SeatConceded) -> Any:
    """The seat is out: its hand and pending card are set aside; it owes nothing."""
    state = with_seat(
        state, event.seat, hand=(), pending=None, set_aside=event.set_aside, conceded=True
    )
    if isinstance(state, (Beat, Gambit)):
        state = replace(state, owing=tuple(s for s in state.owing if s != event.seat))
    return state


def _road_ended(state: Any, event: RoadEnded) -> Over:
    """The match is over."""
    return become(Over, state, winners=event.winners)


def _unchanged(state: Any, _: Any) -> Any:
    """An event that only tells what happens next (its consequences are events of their own)."""
    return state


_RECORDERS: dict[type, Callable[[Any, Any], Any]] = {
    RoadOpened: _opened,
    NightDealt: _dealt,
    FateFlipped: _flipped,
    PlaysCalled: _called,
    PlayCommitted: _committed,
    PlaysRevealed: _revealed,
    StoreLoaded: _loaded,
    LoadMissed: _missed,
    WagonPushed: _pushed,
    TrailBroken: _broken,
    CardFed: _fed,
    SnowDrifted: _snow,
    KingRoared: _snow,
    GambitCalled: _gambit,
    CardFlung: _flung,
    WatchKept: _fed,
    LastWatchBegan: _unchanged,
    SnowRose: _snow,
    WagonRolled: _rolled,
    NightEnded: _ended,
    GratitudePaid: _paid,
    SeatConceded: _conceded,
    RoadEnded: _road_ended,
}


# What a Steps starts from: a road already open (deciding a command) or the unopened one (the
# setup). Covariant, as core Steps is: steps from an open road are steps of the whole game.
Folded = TypeVar("Folded", State, State | Unopened, covariant=True)


class Steps(steps.Steps[Folded, Event]):
    """Deciding on the road: the events so far, the state they lead to, and the rules version."""

    def __init__(self, state: Folded, ruleset: Ruleset) -> None:
        """Start from a state, under one rules version."""
        # The base named, not super(): mypy checks super() against each constraint of Folded
        # and loses the argument's type there (the same call at run time).
        steps.Steps.__init__(self, state, evolve)
        self.ruleset = ruleset


def steps_from(state: Folded, ruleset: Ruleset) -> Steps[Folded]:
    """Decide step by step from a state, each rule seeing the road as it is by then."""
    return Steps(state, ruleset)
