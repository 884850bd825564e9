"""What each card does once it is face up in the lantern log (the rulebook's card list)."""

from __future__ import annotations

from collections.abc import Callable

from domain.wick_ember.cards import (
    CHOOSES_A_SEAT,
    FERRYWOMAN,
    GALE,
    HEARTHFLAME,
    LAMP_WARDEN,
    LENSMAKER,
    MOTH_DUCHESS,
    SOOTSWEEP,
    VEILKEEPER,
    name_of,
    rank_of,
)
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.events import (
    CardDiscarded,
    CardSeen,
    CardsPassed,
    FlamesCompared,
    FlameSnuffed,
    GuessJudged,
    ReplacementDrawn,
    SeatVeiled,
)
from domain.wick_ember.evolve import Steps
from domain.wick_ember.state import open_seats


def resolve(steps: Steps, seat: int, play: PlayCard) -> None:
    """Carry out a played card; a card that chose no one does nothing (W5)."""
    if play.target is None and play.card in CHOOSES_A_SEAT:
        return
    _EFFECTS[play.card](steps, seat, play)


def hidden_card(steps: Steps, seat: int) -> int:
    """The one hidden card a seat holds outside its own turn."""
    return steps.state.seats[seat].hand[0]


def snuff(steps: Steps, seat: int) -> None:
    """A flame goes out and its hidden card goes face up into the ash."""
    steps.then(FlameSnuffed(seat=seat, revealed=steps.state.seats[seat].hand))


def lamp_warden(steps: Steps, seat: int, play: PlayCard) -> None:
    """1: name a rank; a hit snuffs the target (W6)."""
    assert play.target is not None and play.guess is not None
    hit = name_of(hidden_card(steps, play.target)) == play.guess
    steps.then(GuessJudged(seat=seat, target=play.target, guess=play.guess, hit=hit))
    if hit:
        snuff(steps, play.target)


def lensmaker(steps: Steps, seat: int, play: PlayCard) -> None:
    """2: look at the target's hidden card; only the looker keeps a note (W7)."""
    assert play.target is not None
    steps.then(CardSeen(seat=seat, target=play.target, card=hidden_card(steps, play.target)))


def gale(steps: Steps, seat: int, play: PlayCard) -> None:
    """3: compare hidden cards; the lower flame is snuffed, a tie is equal flames (W8)."""
    assert play.target is not None
    mine, theirs = rank_of(hidden_card(steps, seat)), rank_of(hidden_card(steps, play.target))
    loser = None if mine == theirs else seat if mine < theirs else play.target
    steps.then(FlamesCompared(seat=seat, target=play.target, loser=loser))
    if loser is not None:
        snuff(steps, loser)


def veilkeeper(steps: Steps, seat: int, play: PlayCard) -> None:
    """4: the player is veiled until the start of their next turn (W9)."""
    steps.then(SeatVeiled(seat=seat))


def sootsweep(steps: Steps, seat: int, play: PlayCard) -> None:
    """5: the target discards unresolved; a discarded Hearthflame snuffs it, else it redraws."""
    assert play.target is not None
    card = hidden_card(steps, play.target)
    steps.then(CardDiscarded(seat=play.target, card=card))
    if name_of(card) == HEARTHFLAME:
        snuff(steps, play.target)
    else:
        draw_replacement(steps, play.target)


def draw_replacement(steps: Steps, seat: int) -> None:
    """W10: the top card, or the face-down set-aside when the deck is empty."""
    layout = steps.state.round
    if layout.draw_pile:
        steps.then(ReplacementDrawn(seat=seat, card=layout.draw_pile[0]))
    elif layout.set_aside is not None:
        steps.then(ReplacementDrawn(seat=seat, card=layout.set_aside, from_set_aside=True))


def ferrywoman(steps: Steps, seat: int, play: PlayCard) -> None:
    """6: every lit, unveiled seat passes its hidden card clockwise within the pass (W11)."""
    ring = open_seats(steps.state)
    if len(ring) >= 2:
        steps.then(CardsPassed(seats=ring))


def moth_duchess(steps: Steps, seat: int, play: PlayCard) -> None:
    """7: no effect."""


_EFFECTS: dict[str, Callable[[Steps, int, PlayCard], None]] = {
    LAMP_WARDEN: lamp_warden,
    LENSMAKER: lensmaker,
    GALE: gale,
    VEILKEEPER: veilkeeper,
    SOOTSWEEP: sootsweep,
    FERRYWOMAN: ferrywoman,
    MOTH_DUCHESS: moth_duchess,
}
