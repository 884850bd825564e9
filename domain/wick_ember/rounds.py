"""The flow of the night: dealing a round, passing the turn, ending a round, ending the match."""

from __future__ import annotations

from domain.core.errors import BrokenInvariant
from domain.core.rng import Rng
from domain.core.seats import clockwise_from, first_clockwise, next_clockwise
from domain.wick_ember.cards import card_ids, rank_of
from domain.wick_ember.events import (
    DawnBroke,
    Event,
    NightBegan,
    NightEnded,
    RoundDealt,
    RoundWon,
    SetAsideRevealed,
    TurnBegan,
)
from domain.wick_ember.evolve import Steps, steps_from
from domain.wick_ember.options import Options, deck_for, ember_target_for, scripted_deal
from domain.wick_ember.state import UNLIT, BetweenRounds, Playing, lit_seats, seats_in


def open_night(options: Options, names: tuple[str, ...], rng: Rng) -> list[Event]:
    """The opening events: the table, round 1's deal, and the opener's first draw."""
    deck = deck_for(options, len(names))
    steps = steps_from(UNLIT)
    steps.then(
        NightBegan(
            names=names,
            deck=deck,
            ember_target=ember_target_for(options, len(names)),
            practice_deal=scripted_deal(options, deck),
        )
    )
    opener = options.opener
    if opener is None:
        opener = rng.stream("opener").below(len(names))
    deal_round(steps, 1, opener, rng)
    return steps.events


def deal_round(steps: Steps, number: int, opener: int, rng: Rng) -> None:
    """W3: shuffle (or take the practice deal), lay the round out, and start the opener's turn."""
    night = steps.state.night
    if number <= len(night.practice_deal):
        order = list(night.practice_deal[number - 1])
    else:
        order = rng.stream("round", number, "deck").shuffle(card_ids(night.deck))
    steps.then(lay_out(steps.state, number, opener, order))
    begin_turn(steps, opener)


def lay_out(state: BetweenRounds, number: int, opener: int, order: list[int]) -> RoundDealt:
    """The deck from the top: face-down set-aside, two face up at two seats, a card each, the rest.

    H1: the face-up set-asides follow the seat count at creation; H2: conceded seats get no card.
    """
    face_up = 2 if state.night.seats == 2 else 0
    rest = order[1 + face_up :]
    receivers = [
        s for s in clockwise_from(opener, state.night.seats) if not state.seats[s].conceded
    ]
    hands: list[int | None] = [None] * state.night.seats
    for seat, card in zip(receivers, rest):
        hands[seat] = card
    return RoundDealt(
        round=number,
        opener=opener,
        set_aside=order[0],
        face_up=tuple(order[1 : 1 + face_up]),
        hands=tuple(hands),
        draw_pile=tuple(rest[len(receivers) :]),
    )


def begin_turn(steps: Steps, seat: int) -> None:
    """W5: the seat's veil drops and it draws the top card."""
    steps.then(TurnBegan(seat=seat, drew=steps.state.round.draw_pile[0]))


def finish_turn(steps: Steps, player: int, rng: Rng) -> None:
    """W13, after every turn: a last lit flame wins, else an empty deck is dawn, else next seat."""
    state: Playing = steps.state
    lit = lit_seats(state)
    if len(lit) == 1:
        end_round(steps, lit, rng)
    elif not state.round.draw_pile:
        break_dawn(steps, rng)
    else:
        begin_turn(steps, _found(next_clockwise(player, state.night.seats, lit)))


def break_dawn(steps: Steps, rng: Rng) -> None:
    """W13: every lit seat shows its card; the highest wins, ties share."""
    shown = tuple(lamp.hand[0] if lamp.lit and lamp.hand else None for lamp in steps.state.seats)
    steps.then(DawnBroke(revealed=shown))
    best = max(rank_of(card) for card in shown if card is not None)
    winners = tuple(s for s, card in enumerate(shown) if card is not None and rank_of(card) == best)
    end_round(steps, winners, rng)


def end_round(steps: Steps, winners: tuple[int, ...], rng: Rng) -> None:
    """W13, W14: winners bank embers, the set-aside turns up, then the match ends or deals on."""
    current = steps.state.round
    steps.then(RoundWon(round=current.number, winners=winners))
    steps.then(SetAsideRevealed(card=current.set_aside))
    champions = night_winners(steps.state)
    if champions:
        steps.then(NightEnded(winners=champions))
    else:
        opener = first_clockwise(current.opener, steps.state.night.seats, winners)
        deal_round(steps, current.number + 1, _found(opener), rng)


def night_winners(state: BetweenRounds) -> tuple[int, ...]:
    """W14: every seat at the ember target shares the win; W15: a last seat still in wins."""
    reached = tuple(
        s for s, lamp in enumerate(state.seats) if lamp.embers >= state.night.ember_target
    )
    if reached:
        return reached
    still_in = seats_in(state)
    return still_in if len(still_in) == 1 else ()


def _found(seat: int | None) -> int:
    """A seat the rules guarantee exists (a lit seat to pass to, a winner to open)."""
    if seat is None:
        raise BrokenInvariant("no seat where the rules guarantee one")
    return seat
