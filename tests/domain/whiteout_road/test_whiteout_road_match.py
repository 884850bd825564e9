"""Determinism, the event and command codecs, and the match wrapper (domain.core.match)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from whiteout_road_random import random_match
from whiteout_road_support import PLAYERS, stacked

from domain.core import codec, match
from domain.core.decider import Concede
from domain.core.errors import RuleViolation, WrongPhase
from domain.core.match import MatchCreated, Table
from domain.core.rng import Rng
from domain.registry import lookup
from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road.cards import CARDS, WHITEOUT
from domain.whiteout_road.commands import Commit
from domain.whiteout_road.events import NightDealt, RoadOpened
from domain.whiteout_road.options import Options
from tests.domain import table
from tests.domain.random_play import event_steps

SEED = b"server seed for the whiteout road wrapper tests"


def created(seats: int, options: dict[str, Any], practice: bool = False) -> MatchCreated:
    """A new Whiteout Road match's first event, through the wrapper's checks."""
    return table.created(GAME, seats, options, practice)


def seated(seats: int, options: dict[str, Any], practice: bool = False) -> list[Any]:
    """The events of a match whose seats are taken and whose play has started."""
    return table.seated(GAME, PLAYERS[:seats], options, SEED, practice)


def play_out(events: list[Any], chooser: random.Random) -> list[Any]:
    """Random legal commitments through the wrapper, in random seat order, until the match ends."""
    return table.play_out(GAME, events, chooser, SEED)


def test_the_game_is_registered_under_its_id():
    """The package registers itself as 'whiteout-road', rules version 1 among its versions."""
    assert lookup("whiteout-road", "1") is GAME
    assert (GAME.title, GAME.rules_version, GAME.min_seats, GAME.max_seats) == (
        "Whiteout Road",
        "1",
        2,
        6,
    )


def test_given_the_same_seed_and_commands_then_the_events_are_identical_bytes():
    """Determinism: replaying a random match's commands gives byte-identical events."""
    for index in (3, 4, 5):
        runs = [
            [codec.encode(event) for batch in random_match(index) for event in batch.events]
            for _ in range(2)
        ]
        assert runs[0] == runs[1] and len(runs[0]) > 50


def test_given_the_wrapper_when_a_whole_match_is_played_twice_then_every_event_is_identical():
    """Determinism through domain.core.match, from MatchCreated on; every event decodes back."""
    runs = [play_out(seated(4, {}), random.Random(9)) for _ in range(2)]
    first, second = ([codec.encode(e) for e in run] for run in runs)
    assert first == second
    decoder = codec.event_decoder(GAME)
    assert [decoder.decode(raw) for raw in first] == runs[0]
    state = match.fold(GAME, runs[0])
    assert match.status(GAME, state) == "finished" and match.outcome(GAME, state) is not None
    assert len([e for e in runs[0] if isinstance(e, NightDealt)]) == 3


def test_given_the_same_events_then_evolve_folds_to_the_same_state_without_a_generator():
    """Every chance outcome is in the events: a plain fold reaches the played match's last state."""
    steps = [(event, after) for _, event, after in event_steps(random_match(7))]
    state = None
    for event, _ in steps:
        state = GAME.evolve(state, event)
    assert state == steps[-1][1] and GAME.outcome(state) is not None


def test_r2_h3_given_no_practice_deal_then_the_night_streams_deal_the_hands_and_shuffle_fate():
    """R2, H3: night n's labels are ('night', n, 'deck') and ('night', n, 'fate')."""
    rng = Rng(b"r2 streams")
    events = GAME.setup(Options(), PLAYERS[:3], rng)
    dealt = next(e for e in events if isinstance(e, NightDealt))
    deck = Rng(b"r2 streams").stream("night", 1, "deck").shuffle(CARDS)
    assert dealt.hands == (tuple(deck[0:8]), tuple(deck[8:16]), tuple(deck[16:24]))
    fate = Rng(b"r2 streams").stream("night", 1, "fate").shuffle([*deck[24:], WHITEOUT])
    assert dealt.fate == tuple(fate) and len(dealt.fate) == 25


def test_given_a_practice_match_then_the_wrapper_deals_the_scripted_night():
    """Practice options pass through the wrapper: the deal is as written."""
    night = stacked([["7C", "KH"], ["10D"]], fate=["9S"])
    events = seated(2, {"deal": [night]}, practice=True)
    dealt = next(e for e in events if isinstance(e, NightDealt))
    assert dealt.hands[0][:2] == ("7C", "KH") and dealt.hands[1][0] == "10D"
    assert dealt.fate[0] == "9S"
    state = match.fold(GAME, events)
    assert isinstance(state, Table)
    assert "7C" in GAME.observe(state.game, 0).hand and "7C" not in GAME.observe(state.game, 1).hand


def test_given_a_real_match_when_the_options_script_a_deal_then_the_wrapper_refuses_it():
    """Practice only, checked when the match is opened; seat counts 2 to 6."""
    night = stacked([[], []])
    with pytest.raises(RuleViolation, match="practice"):
        created(2, {"deal": [night]})
    with pytest.raises(RuleViolation, match="2 to 6"):
        created(7, {})


def test_given_a_finished_match_when_a_seat_acts_then_the_wrapper_says_the_match_is_over():
    """The wrapper refuses commands once the outcome is known."""
    events = play_out(seated(2, {"burial_mark": 3}), random.Random(1))
    with pytest.raises(WrongPhase, match="over"):
        match.decide(GAME, match.fold(GAME, events), 0, Concede(), SEED)


def test_the_api_command_format_decodes_to_a_commitment_or_a_concession():
    """Commands as the API sends them: {"type": "commit", ...} or {"type": "concede"}."""
    decoder = codec.command_decoder(GAME)
    raw = b'{"type":"commit","card":"4S","play":"break_trail","wagon":"food"}'
    assert decoder.decode(raw) == Commit(card="4S", play="break_trail", wagon="food")
    assert decoder.decode(b'{"type":"commit","card":"10H","play":"feed"}') == Commit(
        card="10H", play="feed"
    )
    assert decoder.decode(b'{"type":"concede"}') == Concede()


def test_event_tags_are_the_games_own_and_never_the_wrappers():
    """Event tags must not clash with match_created, seat_joined or match_started."""
    tags = {cls.__struct_config__.tag for cls in GAME.Event.__args__}
    assert not tags & {"match_created", "seat_joined", "match_started"}
    assert len(tags) == len(GAME.Event.__args__) and RoadOpened.__struct_config__.tag in tags
