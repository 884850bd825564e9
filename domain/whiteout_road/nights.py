"""The flow of the match: open the road, deal each night (R2), end the match after three (R10)."""

from __future__ import annotations

from domain.core.rng import Rng
from domain.whiteout_road.beats import begin_beat
from domain.whiteout_road.cards import CARDS, WHITEOUT
from domain.whiteout_road.events import Event, NightDealt, RoadEnded, RoadOpened
from domain.whiteout_road.evolve import Steps, steps_from
from domain.whiteout_road.options import (
    HAND_SIZES,
    NIGHTS,
    Options,
    burial_mark_for,
    scripted_deal,
)
from domain.whiteout_road.state import UNOPENED, Camp, Table, Traveller, seats_in
from domain.whiteout_road.versions import Ruleset


def open_road(
    options: Options, names: tuple[str, ...], rng: Rng, ruleset: Ruleset
) -> list[Event]:
    """The opening events: the table, night 1's deal and its first Fate flips."""
    steps = steps_from(UNOPENED, ruleset)
    steps.then(
        RoadOpened(
            names=names,
            burial_mark=burial_mark_for(options, len(names)),
            hand_size=HAND_SIZES[len(names)],
            practice_deal=scripted_deal(options),
        )
    )
    carry_on(steps, rng)
    return steps.events


def carry_on(steps: Steps, rng: Rng) -> None:
    """Between nights: deal the next one, or end the match after the third (R10)."""
    while isinstance(steps.state, Camp):
        board = steps.state.board
        number = 0 if board is None else board.night
        if number >= NIGHTS:
            steps.then(RoadEnded(winners=winners(steps.state)))
            return
        deal_night(steps, number + 1, rng)


def deal_night(steps: Steps, number: int, rng: Rng) -> None:
    """R2: deal the hands, the rest with the whiteout is Fate; then the first beat begins."""
    state: Camp = steps.state
    practice = state.road.practice_deal
    if number <= len(practice):
        order = list(practice[number - 1])
        deck = [card for card in order if card != WHITEOUT]
    else:
        deck = rng.stream("night", number, "deck").shuffle(CARDS)
    hands = _hands(state, deck)
    dealt = {card for hand in hands for card in hand}
    if number <= len(practice):
        fate = [card for card in order if card not in dealt]
    else:
        fate = rng.stream("night", number, "fate").shuffle([*deck[len(dealt) :], WHITEOUT])
    steps.then(NightDealt(night=number, hands=hands, fate=tuple(fate)))
    begin_beat(steps)


def _hands(state: Camp, deck: list[str]) -> tuple[tuple[str, ...], ...]:
    """The hands from the top of the deck, seat by seat; a conceded seat gets none."""
    size = state.road.hand_size
    dealt = {seat: tuple(deck[i * size : (i + 1) * size]) for i, seat in enumerate(seats_in(state))}
    return tuple(dealt.get(seat, ()) for seat in range(len(state.seats)))


def standing(traveller: Traveller) -> tuple[int, int]:
    """R10: gratitude, then the best single night."""
    return traveller.gratitude, max(traveller.nights, default=0)


def winners(state: Table) -> tuple[int, ...]:
    """R10: most gratitude among the seats still in; a tie goes to the best night, else shared."""
    still_in = seats_in(state)
    best = max(standing(state.seats[seat]) for seat in still_in)
    return tuple(seat for seat in still_in if standing(state.seats[seat]) == best)
