"""How a night ends (R5 to R7): through, buried, the whiteout, the Gambit, the Last Watch."""

from __future__ import annotations

from domain.whiteout_road.cards import Wagon, is_spade, wagon_of
from domain.whiteout_road.events import (
    CardFlung,
    Ending,
    GambitCalled,
    GratitudePaid,
    LastWatchBegan,
    NightEnded,
    SnowRose,
    WagonRolled,
    WatchKept,
)
from domain.whiteout_road.evolve import Steps
from domain.whiteout_road.repayment import repayment
from domain.whiteout_road.state import holders
from domain.whiteout_road.tiebreak import gambit_winner, wagon_tie

TOWN = 6
LAST_WATCH_FLOOD = 3


def end_night(steps: Steps, ending: Ending, through: Wagon | None) -> None:
    """The night is over; every seat is repaid (R9) under the match's rules version."""
    steps.then(NightEnded(night=steps.state.board.night, ending=ending, through=through))
    lines = repayment(steps.state, steps.ruleset)
    steps.then(GratitudePaid(night=steps.state.board.night, lines=lines))


def arrived(steps: Steps, ending: Ending) -> bool:
    """R5: a laden wagon in Town is through (several: R8); True when the night ended."""
    board = steps.state.board
    names: list[Wagon] = [c.name for c in board.wagons if c.laden and c.position >= TOWN]
    if names:
        end_night(steps, ending, wagon_tie(steps, names))
    return bool(names)


def buried(steps: Steps, ending: Ending) -> bool:
    """R5: the snow at the burial mark buries the road; True when the night ended."""
    if steps.state.board.snow < steps.state.road.burial_mark:
        return False
    end_night(steps, ending, None)
    return True


def whiteout(steps: Steps) -> None:
    """R6: the furthest laden wagon that has moved is through; with none, the Gambit."""
    names: list[Wagon] = [c.name for c in steps.state.board.wagons if c.laden and c.position >= 1]
    if names:
        end_night(steps, "whiteout", wagon_tie(steps, names))
        return
    steps.then(GambitCalled(seats=holders(steps.state)))
    if not steps.state.owing:
        resolve_gambit(steps)


def resolve_gambit(steps: Steps) -> None:
    """R6: the revealed cards are flung or kept as watches; the biggest flung total is through."""
    for play in steps.state.board.revealed:
        wagon = wagon_of(play.card)
        if is_spade(play.card) or wagon is None:
            steps.then(WatchKept(seat=play.seat, card=play.card))
        else:
            steps.then(CardFlung(seat=play.seat, card=play.card, wagon=wagon))
    end_night(steps, "gambit", gambit_winner(steps))


def last_watch(steps: Steps) -> None:
    """R7: stop flipping; the snow floods, then the laden wagons on 1 to 5 roll, until an end."""
    steps.then(LastWatchBegan())
    flood = LAST_WATCH_FLOOD + steps.state.road.players
    while True:
        steps.then(SnowRose(by=flood, snow=steps.state.board.snow + flood))
        if buried(steps, "last_watch"):
            return
        for cart in steps.state.board.wagons:
            if cart.laden and 1 <= cart.position < TOWN:
                steps.then(WagonRolled(wagon=cart.name, position=cart.position + 1))
        if arrived(steps, "last_watch"):
            return
