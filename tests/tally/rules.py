"""Tally's rules: a seeded deal of numbered cards, a card a seat each round, highest card wins.

Twelve cards T01 to T12 (zero-padded, so no card's name is part of another's); each of 2 to 4
seats is dealt 3. Each round the seats still in play one card each, in seat order, face up; the
highest card played wins the round and scores (1 point under rules version 1, the card's number
under version 2). After three rounds, most points wins (ties share the win). A seat may concede
at any time: it plays no more and cannot win; when one seat is left, it wins at once.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.decider import Concede, Outcome
from domain.core.errors import NotYourTurn, RuleViolation, WrongPhase
from domain.core.rng import Rng
from domain.core.steps import Steps

CARDS = tuple(f"T{number:02d}" for number in range(1, 13))
HAND = 3
MIN_SEATS, MAX_SEATS = 2, 4
replace = msgspec.structs.replace


class Ruleset(msgspec.Struct, frozen=True, kw_only=True):
    """One rules version of Tally: its number and how a round scores."""

    version: str
    points_are_the_card: bool  # version 1: a round won is 1 point; version 2: the card's number


def value(card: str) -> int:
    """A card's number: 'T07' -> 7."""
    return int(card[1:])


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Tally has no options."""


class PlayCard(msgspec.Struct, tag="tally_play", frozen=True, kw_only=True):
    """Play one card of your hand, face up."""

    card: str


Command = PlayCard | Concede


class TallyDealt(msgspec.Struct, tag="tally_dealt", frozen=True, kw_only=True):
    """The seats' names and the hands dealt from the seeded shuffle, seat by seat."""

    names: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]


class TallyCardPlayed(msgspec.Struct, tag="tally_card_played", frozen=True, kw_only=True):
    """A seat played a card this round."""

    seat: int
    card: str


class TallyRoundWon(msgspec.Struct, tag="tally_round_won", frozen=True, kw_only=True):
    """The highest card of the round won it, and scored these points."""

    round: int
    seat: int
    card: str
    points: int


class TallyConceded(msgspec.Struct, tag="tally_conceded", frozen=True, kw_only=True):
    """A seat gave up; its hand is out of play."""

    seat: int


class TallyEnded(msgspec.Struct, tag="tally_ended", frozen=True, kw_only=True):
    """The match is over; these seats won."""

    winners: tuple[int, ...]


Event = TallyDealt | TallyCardPlayed | TallyRoundWon | TallyConceded | TallyEnded


class Undealt(msgspec.Struct, frozen=True, kw_only=True):
    """Before the deal: the state the first event is recorded on."""


UNDEALT = Undealt()


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """Names, hands, scores, who conceded, the round, its plays (seat, card), earlier rounds' cards."""

    names: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    conceded: tuple[bool, ...]
    round: int = 1
    played: tuple[tuple[int, str], ...] = ()
    discards: tuple[str, ...] = ()


class Playing(Table, frozen=True, kw_only=True):
    """A round in play."""


class Over(Table, frozen=True, kw_only=True):
    """The match is over."""

    winners: tuple[int, ...] = ()


State = Playing | Over


def setup(options: Options, names: tuple[str, ...], rng: Rng) -> list[Event]:
    """The deal: the twelve cards shuffled by the 'deal' stream, three to each seat in order."""
    deck = rng.stream("deal").shuffle(list(CARDS))
    hands = tuple(tuple(sorted(deck[i * HAND : (i + 1) * HAND])) for i in range(len(names)))
    return [TallyDealt(names=names, hands=hands)]


def check_options(options: Options, seats: int, practice: bool) -> None:
    """Two to four seats."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleViolation(f"Tally is played by {MIN_SEATS} to {MAX_SEATS} players")


def still_in(state: Table) -> tuple[int, ...]:
    """The seats that have not conceded."""
    return tuple(seat for seat, out in enumerate(state.conceded) if not out)


def to_act(state: Any) -> tuple[int, ...]:
    """The next seat still in, in seat order, that has not played this round."""
    if not isinstance(state, Playing):
        return ()
    done = {seat for seat, _ in state.played}
    return tuple(seat for seat in still_in(state) if seat not in done)[:1]


def legal_actions(state: Any, seat: int) -> list[PlayCard]:
    """Every card of the seat's hand while it is to act, lowest first."""
    if seat not in to_act(state):
        return []
    return [PlayCard(card=card) for card in state.hands[seat]]


def decide_steps(
    state: Any, seat: int, command: Command, rng: Rng, ruleset: Ruleset
) -> Steps[State, Event]:
    """The events of a seat's command and the state they lead to, or a RuleViolation."""
    if not isinstance(state, Playing):
        raise WrongPhase("the match is over" if isinstance(state, Over) else "nothing is dealt")
    if not 0 <= seat < len(state.names) or state.conceded[seat]:
        raise NotYourTurn("you are not in this match any more")
    steps: Steps[State, Event] = Steps(state, evolve)
    if isinstance(command, Concede):
        steps.then(TallyConceded(seat=seat))
    else:
        check_play(state, seat, command)
        steps.then(TallyCardPlayed(seat=seat, card=command.card))
    settle(steps, ruleset)
    return steps


def check_play(state: Playing, seat: int, command: PlayCard) -> None:
    """It is the seat's turn and it holds the card."""
    if seat not in to_act(state):
        raise NotYourTurn("it is not your turn")
    if command.card not in state.hands[seat]:
        raise RuleViolation(f"you do not hold {command.card!r}")


def settle(steps: Steps, ruleset: Ruleset) -> None:
    """One seat left wins at once; a round every seat still in has played is won and scored."""
    state = steps.state
    if len(still_in(state)) == 1:
        steps.then(TallyEnded(winners=still_in(state)))
        return
    if to_act(state):
        return
    plays = [(seat, card) for seat, card in state.played if not state.conceded[seat]]
    seat, card = max(plays, key=lambda play: value(play[1]))
    points = value(card) if ruleset.points_are_the_card else 1
    steps.then(TallyRoundWon(round=state.round, seat=seat, card=card, points=points))
    if steps.state.round > HAND:
        steps.then(TallyEnded(winners=leaders(steps.state)))


def leaders(state: Table) -> tuple[int, ...]:
    """The seats still in with the most points."""
    best = max(state.scores[seat] for seat in still_in(state))
    return tuple(seat for seat in still_in(state) if state.scores[seat] == best)


def evolve(state: Any, event: Event) -> State:
    """The state after one event: a plain record, never a check."""
    match event:
        case TallyDealt(names=names, hands=hands):
            n = len(names)
            return Playing(names=names, hands=hands, scores=(0,) * n, conceded=(False,) * n)
        case TallyCardPlayed(seat=seat, card=card):
            hands = _with(state.hands, seat, tuple(c for c in state.hands[seat] if c != card))
            return replace(state, hands=hands, played=(*state.played, (seat, card)))
        case TallyRoundWon(seat=seat, points=points):
            scores = _with(state.scores, seat, state.scores[seat] + points)
            discards = (*state.discards, *(card for _, card in state.played))
            return replace(state, scores=scores, round=state.round + 1, played=(), discards=discards)
        case TallyConceded(seat=seat):
            return replace(state, conceded=_with(state.conceded, seat, True))
        case TallyEnded(winners=winners):
            fields = {name: getattr(state, name) for name in Table.__struct_fields__}
            return Over(**fields, winners=winners)
    raise TypeError(f"not a Tally event: {event!r}")


def _with(values: tuple[Any, ...], index: int, new: Any) -> tuple[Any, ...]:
    """The tuple with one item replaced."""
    return (*values[:index], new, *values[index + 1 :])


def outcome(state: Any) -> Outcome | None:
    """Winners, points and placements (winners first, then by points) once the match is over."""
    if not isinstance(state, Over):
        return None
    others = [seat for seat in range(len(state.names)) if seat not in state.winners]

    def place(seat: int) -> int:
        """1 for a winner, else after the winners and every other seat with more points."""
        if seat in state.winners:
            return 1
        ahead = [o for o in others if state.scores[o] > state.scores[seat]]
        return 1 + len(state.winners) + len(ahead)

    placements = tuple(place(seat) for seat in range(len(state.names)))
    return Outcome(winners=state.winners, scores=state.scores, placements=placements)
