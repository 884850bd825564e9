"""Property test: seeded random legal matches over 2 to 6 players, checked throughout (rules
version 1), and more under rules version 2 (a sampling test, tests/sampling.py: 2,000 and 400 a
run, ten times as many under `make sample-all`)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from whiteout_road_random import random_match

from domain.core.decider import Rulebook
from domain.core.errors import RuleViolation
from domain.core.rng import Rng
from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road import GAME_V2
from domain.whiteout_road.audit import all_cards, card_locations
from domain.whiteout_road.cards import CARDS, EVERY_CARD, sort_key
from domain.whiteout_road.commands import PLAYS, Commit
from domain.whiteout_road.events import GratitudePaid, NightEnded
from domain.whiteout_road.state import Beat, Gambit, Over
from tests import sampling

PER_CHUNK = 200
BUDGET, FULL = 10, 100  # chunks of version 1
V2_BUDGET, V2_FULL = 2, 20  # and of version 2
ALL_LEGAL_CHANCE = 0.02
RANDOM_COMMITS = 2
WAGONS = (None, "food", "medicine", "firewood")
EVERY_CARD_SET = frozenset(EVERY_CARD)


@sampling.MARK
@pytest.mark.parametrize("chunk", sampling.samples(BUDGET, FULL))
def test_random_legal_matches_end_after_three_nights_and_keep_every_card_in_one_place(chunk):
    """Each match ends; cards, gratitude, the seats to act and decide agree with the rules."""
    for index in sampling.chunk(chunk, PER_CHUNK):
        check_match(index)


@sampling.MARK
@pytest.mark.parametrize("chunk", sampling.samples(V2_BUDGET, V2_FULL))
def test_r9_v2_random_legal_matches_end_and_repay_every_tie_at_zero_the_long_watch(chunk):
    """The same checks under rules version 2, whose repayment pays a tie at zero cards (R9)."""
    for index in sampling.chunk(chunk, PER_CHUNK):
        check_match(index, GAME_V2)


def check_match(index: int, game: Rulebook = GAME) -> None:
    """Play one random match and check it after every event and before every command."""
    probe, rng = random.Random(-1 - index), Rng(f"whiteout road random match {index}".encode())
    state: Any = None
    gratitude: list[int] = []
    night: list[int] = []
    nights = 0
    for batch in random_match(index, game):
        if batch.before is not None:
            check_at_rest(batch.before, probe, rng, game)
        for event, state in zip(batch.events, batch.states, strict=True):
            check_cards(state)
            gratitude = gratitude or [0] * len(state.seats)
            if isinstance(event, NightEnded):
                nights += 1
                night = [repaid(state, seat, game) for seat in range(len(state.seats))]
            if isinstance(event, GratitudePaid):
                assert [line.total for line in event.lines] == night
                gratitude = [total + paid for total, paid in zip(gratitude, night)]
                assert [t.gratitude for t in state.seats] == gratitude
    check_result(state, nights, gratitude, game)


def check_cards(state: Any) -> None:
    """Every card and the whiteout lie in exactly one place."""
    if state.board is not None and not exactly_once(all_cards(state)):
        misplaced = {c: places for c, places in card_locations(state).items() if len(places) != 1}
        raise AssertionError(f"cards out of place: {misplaced}")


def exactly_once(cards: list[str]) -> bool:
    """Every card and the whiteout, none twice."""
    return len(cards) == len(EVERY_CARD_SET) and EVERY_CARD_SET.issubset(cards)


def repaid(state: Any, seat: int, game: Rulebook) -> int:
    """One seat's night, recomputed independently: stores, pushes, wages, the Long Watch (a tie at
    zero cards pays nobody in version 1, H8, and everyone still in from version 2, R9)."""
    traveller, board = state.seats[seat], state.board
    if traveller.conceded:
        return 0
    through, total = board.through, 0
    for cart in board.wagons:
        mine = sum(store.pips for store in cart.stores if store.seat == seat)
        if through is not None:
            total += 3 * mine if cart.name == through else -mine
        if cart.name == through:
            total += 2 * sum(push.seat == seat for push in cart.pushes)
    total += sum(3 if card.endswith("S") else 1 for card in traveller.watch)
    piles = [len(t.watch) for t in state.seats if not t.conceded]
    at_zero = game.rules_version != "1"
    if (traveller.watch or at_zero) and len(traveller.watch) == max(piles):
        total += 5
    return total


def check_at_rest(state: Any, probe: random.Random, rng: Rng, game: Rulebook) -> None:
    """Seats owe a card (each has legal actions when it commits: next_command); decide agrees."""
    assert isinstance(state, (Beat, Gambit))
    owing = game.to_act(state)
    assert owing and list(owing) == sorted(owing)
    seat = probe.choice(owing)
    legal = game.legal_actions(state, seat)
    assert legal == sorted(legal, key=commit_order)
    check_decide(state, seat, legal, probe, rng, game)
    waiting = [seat for seat in range(len(state.seats)) if seat not in owing]
    if waiting:
        seat = probe.choice(waiting)
        assert game.legal_actions(state, seat) == []
        assert refused(state, seat, Commit(card="2H", play="feed"), rng, game)


def check_decide(
    state: Any, seat: int, legal: list[Commit], probe: random.Random, rng: Rng, game: Rulebook
) -> None:
    """Decide refuses random commitments that are not legal; now and then it takes every legal one.

    (Every command the random players send is a legal one that decide took.)
    """
    allowed = set(legal)
    for command in random_commits(probe):
        assert bool(game.decide(state, seat, command, rng)) if command in allowed else refused(
            state, seat, command, rng, game
        )
    if probe.random() < ALL_LEGAL_CHANCE:
        assert all(game.decide(state, seat, command, rng) for command in legal)


def refused(state: Any, seat: int, command: Commit, rng: Rng, game: Rulebook) -> bool:
    """Whether decide refuses the command with a rule violation."""
    try:
        game.decide(state, seat, command, rng)
    except RuleViolation:
        return True
    return False


def random_commits(probe: random.Random) -> list[Commit]:
    """A few random, mostly illegal commitments."""
    cards = [*CARDS, "WHITEOUT", "1C", "AS"]
    return [
        Commit(
            card=probe.choice(cards),
            play=probe.choice(PLAYS),
            wagon=probe.choice(WAGONS),  # type: ignore[arg-type]
        )
        for _ in range(RANDOM_COMMITS)
    ]


def commit_order(command: Commit) -> tuple[int, int, int]:
    """The documented order of legal actions: card, then play, then wagon."""
    return sort_key(command.card), PLAYS.index(command.play), WAGONS.index(command.wagon)


def check_result(state: Any, nights: int, gratitude: list[int], game: Rulebook) -> None:
    """Three nights, or a concession left one seat; scores sum the recomputed repayments."""
    assert isinstance(state, Over) and game.to_act(state) == ()
    still_in = [s for s, t in enumerate(state.seats) if not t.conceded]
    assert nights == 3 or len(still_in) == 1
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores == tuple(gratitude)
    assert set(outcome.winners) <= set(still_in)
    assert all(outcome.placements[s] == 1 for s in outcome.winners)
