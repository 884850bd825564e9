"""A beat (R4): Fate's flip, the face-down plays and their order, the drift and the Kings."""

from __future__ import annotations

from whiteout_road_support import Table, stacked

from domain.core.errors import NotYourTurn
from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road.commands import Commit
from domain.whiteout_road.events import (
    CardFed,
    FateFlipped,
    KingRoared,
    LoadMissed,
    NightEnded,
    PlayCommitted,
    PlaysCalled,
    PlaysRevealed,
    SnowDrifted,
    StoreLoaded,
    TrailBroken,
    WagonPushed,
)
from domain.whiteout_road.observer import CommitmentView

MARA = ["9H", "QH", "JH", "7S", "KH"]
BRYN = ["10H", "5D", "4D", "KC", "9S"]


def food_laden_on_three() -> Table:
    """Two players; Mara's 9 of hearts rides the food wagon, on 3 after a push and a flip."""
    table = Table((stacked([MARA, BRYN], fate=["7H", "8H", "2D", "3D", "6D", "7D"]),))
    table.beat("9H load", "10H push")
    return table


def test_r4_given_a_heart_diamond_or_club_then_that_wagon_rolls_one_space():
    """R4.1: the Fate card's wagon +1, told in the rulebook's words."""
    table = Table((stacked([[], []], fate=["7C", "8C", "9C"]),))
    table.beat("-", "-")
    table.beat("-", "-")
    assert table.wagon("firewood").position == 3
    assert "The Fate card is the 9 of clubs: the firewood wagon rolls to 3." in table.lines()


def test_r4_given_a_spade_then_a_cold_snap_raises_the_snow_three():
    """R4.1: a spade is a cold snap, snow +3."""
    table = Table((stacked([[], []], fate=["9S"]),))
    assert table.view(None).snow == 3 and table.last(FateFlipped).snow == 3
    assert "The Fate card is the 9 of spades: a cold snap, the snow rises to 3." in table.lines()


def test_r4_given_an_empty_wagon_then_it_stops_at_five():
    """R4.1: an empty wagon never enters Town, by Fate or by a push."""
    table = Table((stacked([["QH", "JH"], ["10H", "6H"]], fate=["7H", "8H", "9H"]),))
    table.beat("QH push", "10H push")
    table.beat("JH push", "6H push")
    assert table.wagon("food").position == 5 and not table.wagon("food").laden
    assert table.last(WagonPushed).position == 5
    lines = table.lines()
    assert "Bryn pushes the empty food wagon, but it stops at 5." in lines
    assert "The Fate card is the 9 of hearts: the food wagon is empty and stays on 5." in lines


def test_r4_given_one_commitment_then_only_its_owner_sees_the_card_and_the_play():
    """R4.2, R11: everyone sees who has committed, never what, until the last card is down."""
    table = Table((stacked([["7C"], [], []]),), players=3)
    table.commit(0, "7C feed")
    assert table.view(0).commitment == CommitmentView(card="7C", play="feed", wagon=None)
    for viewer in (1, 2, None):
        view = table.view(viewer)
        assert view.commitment is None
        assert [p.committed for p in view.players] == [True, False, False]
    assert table.lines()[-1] == "Mara has committed a card."
    assert table.private_lines(0)[-1] == "You committed the 7 of clubs to the fire."
    assert GAME.to_act(table.state) == (1, 2) and table.legal(0) == []


def test_r4_given_a_committed_card_then_the_commitment_is_final():
    """R4.2: a seat that has committed cannot commit again or take it back."""
    table = Table((stacked([["7C", "8C"], [], []]),), players=3)
    table.commit(0, "7C feed")
    message = table.refuses(0, Commit(card="8C", play="feed"), NotYourTurn)
    assert message == "you have already committed a card; wait for the others"


def test_r4_given_the_last_commitment_then_all_are_revealed_together_and_resolved_in_order():
    """R4.2: one reveal, then loads, pushes, break trails, feeds, each in seat order; the drift."""
    table = Table((stacked([["QH"], ["9H"], ["8C"]], fate=["7H", "8H", "5D"]),), players=3)
    table.beat("-", "-", "-")
    assert table.wagon("food").position == 2
    events = table.beat("QH push", "9H load", "8C feed")
    assert [type(e) for e in events[:8]] == [
        PlayCommitted,
        PlayCommitted,
        PlayCommitted,
        PlaysRevealed,
        StoreLoaded,
        WagonPushed,
        CardFed,
        SnowDrifted,
    ]
    assert [p.seat for p in events[3].plays] == [0, 1, 2]
    assert events[4] == StoreLoaded(seat=1, card="9H", wagon="food", pips=9)
    assert table.wagon("food").position == 3


def test_r4_given_a_wagon_on_zero_to_two_then_a_load_catches_full_pips():
    """R4.2 load: full pips on 0 to 2, laden or not; J/Q/K count 10."""
    table = Table((stacked([["KH"], ["QD"]], fate=["7H"]),))
    events = table.beat("KH load", "QD load")
    loaded = [e for e in events if isinstance(e, StoreLoaded)]
    assert [(e.wagon, e.pips) for e in loaded] == [("food", 10), ("medicine", 10)]
    assert "Mara's King of hearts rides the food wagon: 10 in stores." in table.lines()


def test_r4_given_a_laden_wagon_on_three_to_five_then_a_load_catches_half_pips_rounded_down():
    """R4.2 load: a wagon laden before the reveal catches a thrown sack at half pips."""
    table = food_laden_on_three()
    assert table.wagon("food").position == 3
    events = table.beat("JH load", "-")
    assert StoreLoaded(seat=0, card="JH", wagon="food", pips=5) in events
    line = "The food wagon is on 3: Mara's Jack of hearts is caught at half pips, 5 in stores."
    assert line in table.lines()


def test_r4_given_an_empty_wagon_on_three_to_five_then_a_load_catches_nothing_and_is_lost():
    """R4.2 load: an empty wagon past 2 catches nothing, not even a wagon laden in that reveal."""
    table = Table((stacked([["9D", "QD"], ["8D", "JD"]], fate=["2D", "3D", "4D"]),))
    table.beat("9D push", "8D push")
    assert table.wagon("medicine").position == 4
    events = table.beat("QD load", "JD load")
    assert [type(e) for e in events if isinstance(e, (StoreLoaded, LoadMissed))] == [
        LoadMissed,
        LoadMissed,
    ]
    assert table.view(None).lost == ("QD", "JD") and not table.wagon("medicine").laden
    line = "The medicine wagon is empty on 4 and catches nothing: Mara's Queen of diamonds is lost."
    assert line in table.lines()


def test_r4_given_a_load_and_a_push_on_one_wagon_then_the_load_resolves_first():
    """R4.2: the load is caught on 2 (full pips) before the push rolls the wagon to 3."""
    table = Table((stacked([["QH"], ["9H"]], fate=["7H", "8H", "5D"]),))
    table.beat("-", "-")
    table.beat("QH push", "9H load")
    assert table.wagon("food").stores[0].pips == 9 and table.wagon("food").position == 3


def test_r4_given_a_laden_wagon_on_three_or_four_then_break_trail_shovels_it_one_space():
    """R4.2 break trail: 3 to 4, 4 to 5; it pays nothing and counts in the drift."""
    table = food_laden_on_three()
    trails = [c for c in table.legal(0) if c.play == "break_trail"]
    assert trails == [Commit(card=c, play="break_trail", wagon="food") for c in ("2S", "7S")]
    table.beat("7S break_trail food", "-")
    assert table.last(TrailBroken) == TrailBroken(seat=0, card="7S", wagon="food", position=4)
    assert table.last(SnowDrifted).by == 1
    assert "7S" in table.view(None).lost and "7S" not in table.view(None).players[0].watch_pile
    assert "Mara breaks trail with the 7 of spades: the food wagon is shovelled to 4." in (
        table.lines()
    )
    table.beat("2S break_trail food", "-")
    assert table.wagon("food").position == 5
    assert all(c.play != "break_trail" for c in table.legal(0))


def test_r4_given_a_wagon_empty_or_off_three_and_four_then_break_trail_is_refused_saying_why():
    """R4.2 break trail: committing it against such a wagon is rejected."""
    table = food_laden_on_three()
    table.beat("QH push", "-")
    table.beat("JH push", "-")
    assert table.refuses_play(0, "7S break_trail food") == (
        "the food wagon is on 5: break trail shovels a laden wagon from 3 to 4 or from 4 to 5"
    )
    assert table.refuses_play(0, "7S break_trail medicine").startswith(
        "the medicine wagon is empty"
    )
    assert table.refuses_play(0, "7S break_trail") == "name the wagon to break trail for"
    assert table.refuses_play(0, "KH break_trail food") == (
        "only a spade breaks trail, not the King of hearts"
    )


def test_r4_given_the_wagon_has_left_three_and_four_when_break_trail_resolves_then_it_does_nothing():
    """R4.2: a push resolves first and takes the wagon from 4 to 5; the spade does nothing."""
    table = food_laden_on_three()
    table.beat("7S break_trail food", "-")
    table.beat("QH push", "9S break_trail food")
    assert table.wagon("food").position == 5
    assert table.last(TrailBroken) == TrailBroken(seat=1, card="9S", wagon="food", position=None)
    assert "Bryn breaks trail with the 9 of spades, but the food wagon has left 3 and 4." in (
        table.lines()
    )


def test_r4_given_players_who_did_not_feed_then_the_snow_drifts_one_for_each():
    """R4.3: loads, pushes and break trails all count; feeders do not."""
    table = Table((stacked([["9H"], ["QD"], ["8C"]], fate=["7H"]),), players=3)
    table.beat("9H load", "QD push", "8C feed")
    assert table.last(SnowDrifted) == SnowDrifted(by=2, snow=2)
    assert "The snow drifts 2, to 2." in table.lines()


def test_r4_given_a_king_fed_then_it_roars_the_snow_back_one_after_the_drift():
    """R4.3: the drift first, then each fed King takes the snow back 1, not below 0."""
    table = Table((stacked([["KH", "KD"], ["9H", "KC"]], fate=["7H", "8H"]),))
    events = table.beat("KH feed", "9H load")
    assert [type(e) for e in events[-4:]] == [SnowDrifted, KingRoared, FateFlipped, PlaysCalled]
    assert table.view(None).snow == 0
    table.beat("KD feed", "KC feed")
    assert [e.snow for e in table.of(KingRoared)] == [0, 0, 0]
    lines = table.lines()
    assert "Mara's King of hearts roars: the snow falls back to 0." in lines
    assert "Bryn's King of clubs roars, but the snow is already at 0." in lines


def test_r4_h2_given_the_drift_reaches_the_mark_when_a_king_roars_then_the_road_is_not_buried():
    """R4.3, R5: the night's end is checked after the whole step, the Kings' roar included."""
    night = stacked([["KH"], ["QH"], ["9H"]], fate=["7H", "8C"])
    table = Table((night,), players=3, burial_mark=2)
    table.beat("KH feed", "QH push", "9H load")
    assert table.of(NightEnded) == [] and table.view(None).snow == 1
    assert table.last(FateFlipped).card == "8C"


def test_r4_h12_given_a_play_that_does_not_fit_the_card_then_it_is_refused_with_the_reason():
    """R4.2, H12: any card feeds; load and push take a heart, diamond or club; no wagon."""
    table = food_laden_on_three()
    assert table.refuses_play(0, "7S load") == (
        "a spade cannot load; it may feed the fire or break trail"
    )
    assert table.refuses_play(0, "QH push food") == (
        "only break trail names a wagon; send no wagon to push"
    )
    assert table.refuses_play(0, "QH fling").startswith("in a beat you feed, load, push or break")
    assert table.refuses_play(0, "9C feed") == "you do not hold the 9 of clubs"
    assert table.refuses_play(0, "1C feed").startswith("there is no card called '1C'")
    assert table.refuses_play(0, "WHITEOUT feed") == "the whiteout is never in a hand"


def test_r4_the_legal_actions_are_every_complete_commitment_by_card_then_play():
    """R4.2: each heart, diamond or club feeds, loads or pushes; a spade feeds (or breaks trail)."""
    table = Table((stacked([["2H", "2D"], []]),))
    legal = table.legal(0)
    assert legal[:4] == [
        Commit(card="2H", play="feed"),
        Commit(card="2H", play="load"),
        Commit(card="2H", play="push"),
        Commit(card="2D", play="feed"),
    ]
    spades = [c for c in legal if c.card.endswith("S")]
    assert spades and all(c.play == "feed" for c in spades)
    assert len(legal) == 3 * (8 - len(spades)) + len(spades)
