"""Determinism and the match wrapper (domain.core.match) driving Wick & Ember end to end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from wick_ember_random import random_match
from wick_ember_support import card_names, stacked

from domain.core import codec, match
from domain.core.decider import Concede
from domain.core.errors import RuleViolation, WrongPhase
from domain.core.match import MatchCreated, Table
from domain.registry import GAMES
from domain.wick_ember import GAME
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.events import NightBegan, RoundDealt
from tests.domain import table

SEED = b"server seed for the wrapper tests"
NAMES = ("Ash", "Bryn", "Cato", "Dell", "Esme", "Fenn")


def created(seats: int, options: dict[str, Any], practice: bool = False) -> MatchCreated:
    """A new Wick & Ember match's first event, through the wrapper's checks."""
    return table.created(GAME, seats, options, practice)


def seated(
    seats: int, options: dict[str, Any], practice: bool = False, seeds: tuple = ()
) -> list[Any]:
    """The events of a match whose seats are taken and whose play has started."""
    return table.seated(GAME, NAMES[:seats], options, SEED, practice, seeds)


def play_out(events: list[Any], chooser: random.Random) -> list[Any]:
    """Random legal commands through the wrapper until the match is over."""
    return table.play_out(GAME, events, chooser, SEED)


def test_the_game_is_registered_under_its_id():
    """The package registers itself; the lead's registry finds it by id."""
    assert GAMES["wick-and-ember"] is GAME
    assert (GAME.title, GAME.rules_version, GAME.min_seats, GAME.max_seats) == (
        "Wick & Ember",
        "1",
        2,
        6,
    )


def test_given_the_same_seed_names_and_commands_then_the_events_are_identical_bytes():
    """Determinism: replaying a random match's commands gives byte-identical events."""
    for index in (3, 4, 5):
        first = [codec.encode(e) for batch in random_match(index) for e in batch.events]
        again = [codec.encode(e) for batch in random_match(index) for e in batch.events]
        assert first == again and len(first) > 10


def test_given_the_wrapper_when_a_whole_match_is_played_twice_then_every_event_is_identical():
    """Determinism through domain.core.match, from MatchCreated on; every event decodes back."""
    runs = [
        play_out(seated(4, {"match_length": "short", "deck": "expanded"}), random.Random(9))
        for _ in range(2)
    ]
    first, second = ([codec.encode(e) for e in run] for run in runs)
    assert first == second
    decoder = codec.event_decoder(GAME)
    assert [decoder.decode(raw) for raw in first] == runs[0]
    state = match.fold(GAME, runs[0])
    assert match.status(GAME, state) == "finished" and match.outcome(GAME, state) is not None


def test_given_a_finished_match_when_a_seat_acts_then_the_wrapper_says_the_match_is_over():
    """The wrapper refuses commands once the outcome is known."""
    events = play_out(seated(2, {"ember_target": 1}), random.Random(1))
    with pytest.raises(WrongPhase, match="over"):
        match.decide(GAME, match.fold(GAME, events), 0, Concede(), SEED)


def test_given_a_practice_match_then_the_wrapper_deals_the_scripted_round_and_opener():
    """Practice options pass through the wrapper: the deal and the opener are as written."""
    deal = stacked("gale", ("lensmaker", "veilkeeper", "sootsweep"), ("moth_duchess",))
    events = seated(3, {"deal": [deal], "opener": 1}, practice=True)
    dealt = next(e for e in events if isinstance(e, RoundDealt))
    assert dealt.opener == 1
    assert card_names(dealt.hands) == ["sootsweep", "lensmaker", "veilkeeper"]
    state = match.fold(GAME, events)
    assert isinstance(state, Table)
    assert GAME.observe(state.game, 1).hand == ("lensmaker", "moth_duchess")


def test_given_a_real_match_when_the_options_script_a_deal_then_the_wrapper_refuses_it():
    """Practice only, checked when the match is opened."""
    with pytest.raises(RuleViolation, match="practice"):
        created(3, {"opener": 1})
    with pytest.raises(RuleViolation, match="at 2 seats the deck must be standard"):
        created(2, {"deck": "expanded"})


def test_given_different_client_seeds_then_the_deal_differs_and_the_names_come_from_the_seats():
    """The match seed mixes the client seeds; the first game event names the seated players."""
    plain = seated(3, {}, seeds=("a", "b", "c"))
    other = seated(3, {}, seeds=("a", "b", "d"))
    began = next(e for e in plain if isinstance(e, NightBegan))
    assert began.names == ("Ash", "Bryn", "Cato")
    deals = [next(e for e in run if isinstance(e, RoundDealt)) for run in (plain, other)]
    assert deals[0] != deals[1]


def test_the_api_command_format_decodes_to_a_play_or_a_concession():
    """Commands as the API sends them: {"type": "play", ...} or {"type": "concede"}."""
    decoder = codec.command_decoder(GAME)
    raw = b'{"type":"play","card":"lamp_warden","target":1,"guess":"gale"}'
    assert decoder.decode(raw) == PlayCard(card="lamp_warden", target=1, guess="gale")
    assert decoder.decode(b'{"type":"play","card":"veilkeeper"}') == PlayCard(card="veilkeeper")
    assert decoder.decode(b'{"type":"concede"}') == Concede()
