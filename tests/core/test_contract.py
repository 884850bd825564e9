"""The game contract: a rulebook that breaks a convention is refused at registration, by name."""

from __future__ import annotations

import dataclasses

import msgspec
import pytest

from domain import registry
from domain.core.contract import GameContractError, check_rulebook
from domain.core.decider import Concede
from domain.core.match import JoinSeat, SeatJoined
from domain.games import GAMES, latest, lookup, rulebooks, versions
from domain.registry import UnknownRules

WICK = GAMES["wick-and-ember"]
ROAD = GAMES["whiteout-road"]


class Untagged(msgspec.Struct, frozen=True, kw_only=True):
    """A view without a tag."""


class Mutable(msgspec.Struct, tag="poke", kw_only=True):
    """A command that is not frozen."""


class Joined(msgspec.Struct, tag="seat_joined", frozen=True, kw_only=True):
    """An event whose tag is the match's own."""


def refusal(**changes: object) -> str:
    """The contract's message for Wick & Ember with some members changed."""
    with pytest.raises(GameContractError) as caught:
        check_rulebook(dataclasses.replace(WICK, **changes))
    return str(caught.value)


def test_given_the_served_games_then_each_keeps_the_contract():
    """Given each registered rulebook, then the contract finds nothing to refuse."""
    for book in rulebooks():
        check_rulebook(book, [other for other in rulebooks() if other.id != book.id])


def test_given_a_command_union_without_concede_then_it_is_refused_naming_the_game_and_the_fix():
    """Given commands that leave out Concede, then the message names the game and Concede."""
    message = refusal(Command=Mutable)
    assert message.startswith("game 'wick-and-ember' rules version '1':")
    assert "domain.core.decider.Concede" in message


def test_given_an_untagged_view_then_it_is_refused_asking_for_a_tag():
    """Given a View with no tag, then the message says to tag it and suggests one."""
    assert 'tag="wick_and_ember_view"' in refusal(View=Untagged)


def test_given_a_view_tag_another_game_uses_then_it_is_refused():
    """Given a view of another game tagged like Wick & Ember's, then the clash is named."""
    lookalike = msgspec.defstruct("Lookalike", [], tag=WICK.View.__struct_config__.tag)
    with pytest.raises(GameContractError, match="'wick-and-ember''s too"):
        check_rulebook(dataclasses.replace(ROAD, View=lookalike), [WICK])


def test_given_a_command_that_is_not_frozen_then_the_declaration_to_use_is_given():
    """Given a mutable command, then the message spells out the declaration to use."""
    message = refusal(Command=Concede | Mutable)
    assert 'class Mutable(msgspec.Struct, tag="...", frozen=True, kw_only=True)' in message


def test_given_an_event_tagged_like_the_matchs_own_then_it_is_refused():
    """Given a game event tagged seat_joined, then the match's own tag is named."""
    assert "'seat_joined' is the match's own" in refusal(Event=WICK.Event | Joined)
    assert SeatJoined.__struct_config__.tag == "seat_joined"


def test_given_a_command_tagged_like_the_matchs_own_then_it_is_refused():
    """Given JoinSeat among the game's commands, then its tag is named as the match's."""
    assert "'join_seat' is the match's own" in refusal(Command=WICK.Command | JoinSeat)


def test_given_no_initial_state_then_it_is_refused():
    """Given None as the initial state, then a state of its own is asked for."""
    assert "initial state must be a Struct" in refusal(initial=None)


def test_given_no_statement_of_secrets_then_it_is_refused():
    """Given a rulebook without secrets, then registration asks for them."""
    assert "it must state its secrets" in refusal(secrets=None)


def test_given_a_bot_named_random_then_it_is_refused():
    """Given a game bot called random, then the message says every game has it already."""
    assert "every game has that one" in refusal(bots={"random": lambda *_: None})


def test_given_a_bad_id_version_or_seat_range_then_each_is_named():
    """Given a malformed id, version and seat range, then the first is named, then the next."""
    assert "lower-case words" in refusal(id="Wick Ember")
    assert "whole number" in refusal(rules_version="v1")
    assert "seat range 3 to 2" in refusal(min_seats=3, max_seats=2)


def test_given_two_versions_of_a_game_then_lookup_finds_each_and_latest_the_newest():
    """Given a version 2 registered beside version 1, then both are found, 2 is the latest."""
    second = dataclasses.replace(WICK, rules_version="2")
    registry.register(second)
    try:
        assert lookup("wick-and-ember", "1") is WICK
        assert lookup("wick-and-ember", "2") is second
        assert latest("wick-and-ember") is second
        assert versions("wick-and-ember") == ["1", "2"]
    finally:
        registry.unregister(second)
    assert latest("wick-and-ember") is WICK


def test_given_a_rules_version_not_carried_then_lookup_names_the_versions_carried():
    """Given version 9, then UnknownRules names the versions this release carries."""
    with pytest.raises(UnknownRules, match=r"rules version 9 is not carried .*version 1"):
        lookup("wick-and-ember", "9")
    with pytest.raises(UnknownRules, match="unknown game 'chess'"):
        latest("chess")


def test_given_a_version_registered_twice_then_it_is_refused():
    """Given Wick & Ember version 1 registered again, then registration refuses it."""
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(WICK)


def test_given_a_decide_that_skips_steps_then_the_match_names_it_as_a_bug():
    """Given a decide that returns events without recording each state (not through
    Steps.then), when a command is decided, then a BrokenInvariant names the game and the fix."""
    from domain.core import match
    from domain.core.errors import BrokenInvariant
    from tests.live.live_support import seated

    def skipping(state, seat, command, rng):
        steps = WICK.decide_steps(state, seat, command, rng)
        steps.states = []
        return steps

    game = dataclasses.replace(WICK, decide_steps=skipping)
    state, _ = seated([None, None], b"s" * 32)
    seat = WICK.to_act(state.game)[0]
    command = WICK.legal_actions(state.game, seat)[0]
    with pytest.raises(BrokenInvariant, match=r"wick-and-ember decided .* Steps\.then"):
        match.decide_and_evolve(game, state, seat, command, b"s" * 32)
