"""Options: seats and decks (W1), match length (W2), and the practice script."""

from __future__ import annotations

import pytest
from wick_ember_support import RNG, stacked

from domain.core import match
from domain.core.errors import RuleViolation
from domain.wick_ember import GAME
from domain.wick_ember.options import Options, deck_for, ember_target_for, scripted_deal


def refused(options: Options, seats: int, practice: bool = True) -> str:
    """The message check_options gives for options it refuses."""
    with pytest.raises(RuleViolation) as caught:
        GAME.check_options(options, seats, practice)
    return caught.value.message


def test_w1_given_two_seats_when_the_host_asks_for_the_expanded_deck_then_it_is_refused():
    """W1: two seats always play the standard deck."""
    assert "standard" in refused(Options(deck="expanded"), 2)
    assert deck_for(Options(), 2) == "standard"


@pytest.mark.parametrize("seats", [5, 6])
def test_w1_given_five_or_six_seats_when_the_host_asks_for_the_standard_deck_then_it_is_refused(
    seats,
):
    """W1: five or six seats always play the expanded deck."""
    assert "expanded" in refused(Options(deck="standard"), seats)
    assert deck_for(Options(), seats) == "expanded"


@pytest.mark.parametrize("seats", [3, 4])
def test_w1_given_three_or_four_seats_then_the_host_chooses_and_standard_is_the_default(seats):
    """W1: at three or four seats either deck is allowed; standard by default."""
    for deck in ("standard", "expanded"):
        GAME.check_options(Options(deck=deck), seats, False)
        assert deck_for(Options(deck=deck), seats) == deck
    assert deck_for(Options(), seats) == "standard"


@pytest.mark.parametrize("seats", [1, 7])
def test_w1_given_a_seat_count_outside_two_to_six_when_opening_then_it_is_refused(seats):
    """W1: Wick & Ember is played by 2 to 6 seats, through the match wrapper too."""
    with pytest.raises(RuleViolation, match="2 to 6"):
        match.open_match(
            GAME,
            seats=seats,
            options={},
            practice=False,
            tournament=None,
            label=None,
            seed_commitment="c",
        )


@pytest.mark.parametrize(
    ("length", "targets"),
    [("short", (4, 3, 3, 2, 2)), ("standard", (6, 5, 4, 3, 3)), ("long", (8, 7, 6, 5, 4))],
)
def test_w2_given_a_match_length_then_the_ember_target_follows_the_table(length, targets):
    """W2: the ember target by match length and seat count."""
    for seats, target in zip(range(2, 7), targets):
        assert ember_target_for(Options(match_length=length), seats) == target


def test_w2_given_an_explicit_ember_target_then_it_overrides_the_match_length():
    """W2: ember_target wins over match_length."""
    assert ember_target_for(Options(match_length="long", ember_target=1), 2) == 1
    events = GAME.setup(Options(ember_target=9), ("Ash", "Bryn"), RNG)
    assert events[0].ember_target == 9


@pytest.mark.parametrize("target", [0, 11, -3])
def test_w2_given_an_ember_target_outside_one_to_ten_then_it_is_refused(target):
    """W2: an explicit ember target is 1 to 10."""
    assert "1 to 10" in refused(Options(ember_target=target), 3)


def test_given_a_real_table_when_options_script_the_deal_or_opener_then_they_are_refused():
    """Practice only: a scripted deal or opener at a real table is refused."""
    assert "practice" in refused(Options(opener=0), 2, practice=False)
    deal = [stacked("gale", ("gale", "lensmaker"), face_up=("lamp_warden", "lamp_warden"))]
    assert "practice" in refused(Options(deal=deal), 2, practice=False)


def test_given_a_practice_deal_with_an_unknown_card_name_then_the_message_names_it():
    """Practice deal: every name must be a card name."""
    deal = stacked("gale", ("gale", "lensmaker"))
    deal[5] = "dragon"
    message = refused(Options(deal=[deal]), 3)
    assert "'dragon' is not a card name" in message and "round 1" in message


def test_given_a_practice_deal_with_a_wrong_count_of_a_card_then_the_message_names_the_card():
    """Practice deal: each round is a permutation of the deck in use."""
    good = stacked("gale", ("gale", "lensmaker"))
    bad = [*good[:-1], "gale"]  # the Hearthflame (last in rank order) replaced by a third Gale
    message = refused(Options(deal=[good, bad]), 3)
    assert message == "round 2 of the deal has 3 gale, the standard deck has 2"
    short = good[:-1]
    assert "0 hearthflame" in refused(Options(deal=[short]), 3)


def test_given_a_standard_deal_at_a_five_seat_table_then_it_is_refused():
    """Practice deal: the deal must be of the deck in use (expanded at five seats)."""
    message = refused(Options(deal=[stacked("gale", ("gale",))]), 5)
    assert "the expanded deck has 7" in message


@pytest.mark.parametrize("opener", [-1, 3])
def test_given_a_practice_opener_outside_the_table_then_it_is_refused(opener):
    """Practice opener: a seat of the table."""
    assert "opener" in refused(Options(opener=opener), 3)


def test_given_an_unknown_option_when_opening_a_match_then_it_is_refused():
    """Options forbid unknown fields; the wrapper answers with a rule violation."""
    with pytest.raises(RuleViolation, match="invalid options"):
        match.open_match(
            GAME,
            seats=2,
            options={"jokers": True},
            practice=False,
            tournament=None,
            label=None,
            seed_commitment="c",
        )


def test_given_a_deal_naming_a_card_twice_then_the_kth_copy_gets_the_kth_identity():
    """Practice deal: the k-th occurrence of a name is the k-th id of that rank."""
    deal = stacked("lamp_warden", ("gale", "lamp_warden"))
    ids = scripted_deal(Options(deal=[deal]), "standard")[0]
    assert ids[:3] == (0, 7, 1)  # Lamp Wardens are ids 0..3, Gales 7..8
    assert sorted(ids) == list(range(16))
