"""Cards and players (R1), the deal (R2), the burial mark (R3), options and practice deals."""

from __future__ import annotations

import msgspec
import pytest
from whiteout_road_support import PLAYERS, RNG, Table, stacked

from domain.core import match
from domain.core.errors import RuleViolation
from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road.cards import CARDS, EVERY_CARD, WHITEOUT, pips, title, wagon_of
from domain.whiteout_road.events import NightDealt, RoadOpened
from domain.whiteout_road.options import BURIAL_MARKS, HAND_SIZES, Options


def refused(options: Options, seats: int = 2, practice: bool = True) -> str:
    """The message check_options gives for options it refuses."""
    with pytest.raises(RuleViolation) as caught:
        GAME.check_options(options, seats, practice)
    return caught.value.message


def test_r1_the_cards_in_play_are_the_48_non_aces_and_the_whiteout():
    """R1: 2 to King in four suits, named like '7C', '10H', 'KS'; J/Q/K count 10; WHITEOUT."""
    assert len(CARDS) == len(set(CARDS)) == 48 and EVERY_CARD[-1] == WHITEOUT
    assert not any(card.startswith("A") for card in CARDS)
    assert [pips(c) for c in ("2H", "10D", "JC", "QS", "KH")] == [2, 10, 10, 10, 10]
    assert [wagon_of(c) for c in ("7H", "7D", "7C", "7S")] == ["food", "medicine", "firewood", None]
    assert [title(c) for c in ("7C", "QS", WHITEOUT)] == [
        "the 7 of clubs",
        "the Queen of spades",
        "the whiteout",
    ]


@pytest.mark.parametrize("seats", [1, 7])
def test_r1_given_a_player_count_outside_two_to_six_when_opening_then_it_is_refused(seats):
    """R1: Whiteout Road is played by 2 to 6 players."""
    assert "2 to 6" in refused(Options(), seats)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_r2_given_a_player_count_then_each_hand_and_the_fate_deck_have_the_rulebook_sizes(seats):
    """R2: 8 cards for 2 to 4 players, 7 for 5, 6 for 6; the rest and the whiteout are Fate."""
    events = GAME.setup(Options(), PLAYERS[:seats], RNG)
    dealt = next(e for e in events if isinstance(e, NightDealt))
    size = {2: 8, 3: 8, 4: 8, 5: 7, 6: 6}[seats]
    assert HAND_SIZES[seats] == size and all(len(hand) == size for hand in dealt.hands)
    assert len(dealt.fate) == 48 - size * seats + 1 and WHITEOUT in dealt.fate


def test_r2_h4_given_a_practice_deal_then_hands_come_seat_by_seat_from_the_top_skipping_the_whiteout():
    """R2: the whiteout never goes to a hand; the rest, in order, is Fate from its top."""
    night = stacked([["7C"], ["KH"]])
    night.remove(WHITEOUT)
    night.insert(1, WHITEOUT)
    table = Table((night,))
    dealt = table.of(NightDealt)[0]
    cards = [c for c in night if c != WHITEOUT]
    assert dealt.hands == (tuple(cards[:8]), tuple(cards[8:16]))
    assert dealt.fate == (WHITEOUT, *cards[16:])


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_r3_given_no_burial_mark_then_the_default_for_the_player_count_is_used(seats):
    """R3: None means the default; the opening event records the mark in use."""
    opened = GAME.setup(Options(), PLAYERS[:seats], RNG)[0]
    assert isinstance(opened, RoadOpened) and opened.burial_mark == BURIAL_MARKS[seats]
    assert GAME.setup(Options(burial_mark=9), PLAYERS[:seats], RNG)[0].burial_mark == 9


@pytest.mark.parametrize("mark", [0, 61])
def test_r3_given_a_burial_mark_outside_one_to_sixty_then_it_is_refused(mark):
    """R3: the mark is 1 to 60."""
    assert refused(Options(burial_mark=mark)) == f"the burial mark must be 1 to 60, not {mark}"


def test_given_an_unknown_option_when_opening_a_match_then_it_is_refused():
    """Unknown fields are refused, not ignored."""
    with pytest.raises(RuleViolation, match="invalid options"):
        match.open_match(
            GAME,
            seats=2,
            options={"snow": 3},
            practice=False,
            tournament=None,
            label=None,
            seed_commitment="c",
        )


def test_every_option_is_described_in_the_schema():
    """Each field carries a description for the catalogue's JSON Schema."""
    schema = msgspec.json.schema(Options)
    fields = schema["$defs"]["Options"]["properties"]
    assert set(fields) == {"burial_mark", "deal"}
    assert all(field["description"] for field in fields.values())


def test_given_a_real_table_when_the_options_script_a_deal_then_it_is_refused():
    """Practice deals are for practice tables only."""
    message = refused(Options(deal=[stacked([[], []])]), practice=False)
    assert message == "a scripted deal is only allowed at a practice table"


def test_given_a_practice_deal_naming_a_wrong_card_then_the_message_names_it():
    """A scripted night lists the 48 cards and the whiteout, each once, by name."""
    night = stacked([[], []])
    assert refused(Options(deal=[[*night[:-1], "AS"]])) == (
        "night 1 of the deal: 'AS' is not a card name"
    )
    assert refused(Options(deal=[night, [*night[:-1], night[0]]])) == (
        f"night 2 of the deal lists {night[0]} more than once"
    )
    assert refused(Options(deal=[night[:-1]])) == f"night 1 of the deal is missing {night[-1]}"
