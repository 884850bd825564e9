"""The match's course: the deal (E1, E2), drawing, turns (E5, E7), the Call and its last round
(E9), the turn cap (EH1) and the scoring."""

from __future__ import annotations

from domain.core.rng import Rng
from domain.core.steps import Steps
from domain.ember.board import final_score, hand_points
from domain.ember.cards import ARTIFACTS, TUTORS, WIZARD_CARDS
from domain.ember.events import (
    CardsDrawn,
    ClosingBegan,
    Dealt,
    DeckReshuffled,
    Event,
    GroupRevealed,
    MatchEnded,
    TurnBegan,
)
from domain.ember.evolve import steps_from
from domain.ember.options import DEALT_ARTIFACTS, FIRST_FACE_UP, Options, scripted_top
from domain.ember.state import UNDEALT, Playing, next_seat, seats_in
from domain.ember.versions import Ruleset, ruleset_of

HAND = 5  # E1: five cards each
LAST_GROUP = 13


def deal(options: Options, names: tuple[str, ...], rng: Rng, ruleset: Ruleset) -> list[Event]:
    """E1, E2: shuffle the 55 wizard cards (a practice deck's top cards first), deal five each,
    a tutor each and three artifacts, under one rules version; the first seat's first turn
    begins (with its draw step, E7, unless the version or the host's EH15 variant says not)."""
    top = scripted_top(options)
    rest = rng.stream("deck").shuffle([card for card in WIZARD_CARDS if card not in top])
    deck = (*top, *rest)
    seats = len(names)
    hands = tuple(tuple(deck[HAND * seat:HAND * (seat + 1)]) for seat in range(seats))
    tutors = tuple(options.tutors or rng.stream("tutors").shuffle(list(TUTORS))[:seats])
    artifacts = tuple(options.artifacts
                      or rng.stream("artifacts").shuffle(list(ARTIFACTS))[:DEALT_ARTIFACTS])
    first = options.first or 0
    steps = steps_from(UNDEALT)
    steps.then(Dealt(names=names, call_at=options.call_at, turn_cap=options.turn_cap,
                     first=first, face_up=options.face_up or FIRST_FACE_UP,
                     deck=tuple(deck[HAND * seats:]), hands=hands, tutors=tutors,
                     artifacts=artifacts, rules_version=ruleset.version,
                     opening_draw=ruleset.first_turn_draws
                     and not options.first_player_skips_draw))
    steps.then(TurnBegan(seat=first, round=1))
    return steps.events


def draw(steps: Steps, seat: int, count: int, rng: Rng) -> None:
    """Draw from the top of the deck (E1): as its last card is taken the Charred pile is shuffled
    into a new one (version 1: when a draw finds it empty); a draw that finds it empty shuffles
    the Charred pile then (EH16: it was empty when the last card went)."""
    while count > 0:
        if not steps.state.deck:
            if not _reshuffle(steps, rng):
                return
            continue
        cards = steps.state.deck[:count]
        steps.then(CardsDrawn(seat=seat, cards=cards))
        count -= len(cards)
        if not steps.state.deck and ruleset_of(steps.state).reshuffle_at_last_card:
            _reshuffle(steps, rng)


def _reshuffle(steps: Steps, rng: Rng) -> bool:
    """E1: the Charred pile shuffled into a new draw deck; False when it is empty."""
    state: Playing = steps.state
    if not state.charred:
        return False
    shuffled = rng.stream("charred", state.draws).shuffle(list(state.charred))
    steps.then(DeckReshuffled(deck=tuple(shuffled)))
    return True


def next_turn(steps: Steps, seat: int) -> None:
    """After a turn ends: the next seat's turn, a final turn, or the last round of abilities."""
    state: Playing = steps.state
    call = state.call
    if call is not None:
        if call.final:
            begin_turn(steps, call.final[0], state.round)
        else:
            steps.then(ClosingBegan(seat=_caller_or_next(state)))
        return
    following = next_seat(state, seat)
    round_ = state.round + (1 if following == _first_in(state) else 0)
    if following == _first_in(state) and round_ > state.turn_cap:
        steps.then(ClosingBegan(seat=following, capped=True))
        return
    begin_turn(steps, following, round_)


def _first_in(state: Playing) -> int:
    """The first player, or the next seat still in after it (its rounds count the turns)."""
    if not state.seats[state.first].conceded:
        return state.first
    return next_seat(state, state.first)


def _caller_or_next(state: Playing) -> int:
    """E9: the last round starts with the caller (or the next seat in, if it conceded)."""
    caller = state.call.caller if state.call is not None else None
    if caller is None or state.seats[caller].conceded:
        return next_seat(state, state.first if caller is None else caller)
    return caller


def begin_turn(steps: Steps, seat: int, round_: int) -> None:
    """E2, E5: the turn begins (the seat's cards advance); the first player reveals a group at
    each turn after its first, its final turn after a Call included (version 1: only as a round
    began)."""
    before: Playing = steps.state
    steps.then(TurnBegan(seat=seat, round=round_))
    final = before.call is not None and ruleset_of(before).final_turn_reveals
    if seat == _first_in(before) and (round_ > before.round or final) \
            and before.face_up < LAST_GROUP:
        steps.then(GroupRevealed(vp=before.face_up + 1))


def all_passed(state: Playing) -> bool:
    """E9: every seat still in has passed in a row."""
    return state.call is not None and state.call.passes >= len(seats_in(state))


def score(steps: Steps) -> None:
    """E9: tutors revealed, scores counted; a tie goes to the higher hand, still tied is shared."""
    state: Playing = steps.state
    seats = seats_in(state)
    scores = tuple(final_score(state, seat) for seat in range(len(state.seats)))
    sums = tuple(hand_points(w.hand) for w in state.seats)
    best = max((scores[seat], sums[seat]) for seat in seats)
    winners = tuple(seat for seat in seats if (scores[seat], sums[seat]) == best)
    steps.then(MatchEnded(tutors=tuple(w.tutor for w in state.seats), scores=scores, sums=sums,
                          winners=winners))
