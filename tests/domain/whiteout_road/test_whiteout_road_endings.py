"""The night's end (R5): through, buried, the whiteout and the Gambit (R6), the Last Watch (R7)."""

from __future__ import annotations

from whiteout_road_scripts import (
    food_through_on_a_flip,
    six_players_fate_holding_only_clubs_and_spades,
)
from whiteout_road_support import Table, stacked

from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road.commands import Commit
from domain.whiteout_road.events import (
    CardFed,
    CardFlung,
    FateFlipped,
    GambitCalled,
    GratitudePaid,
    LastWatchBegan,
    NightDealt,
    NightEnded,
    PlaysRevealed,
    Repayment,
    SnowDrifted,
    SnowRose,
    WagonPushed,
    WagonRolled,
    WatchKept,
)


def first_night_end(table: Table) -> NightEnded:
    """How night 1 ended."""
    return table.of(NightEnded)[0]


def test_r5_given_a_laden_wagon_rolled_into_town_by_fate_then_it_is_through():
    """R5: a laden wagon reaching 6 is through; the log says whose."""
    table = food_through_on_a_flip()
    assert first_night_end(table) == NightEnded(night=1, ending="through", through="food")
    lines = table.lines()
    assert "The Fate card is the 6 of hearts: the food wagon rolls into Town." in lines
    assert "Mara's food wagon is through." in lines
    assert table.of(NightDealt)[-1].night == 2


def test_r5_h1_given_a_push_into_town_then_the_step_completes_and_the_night_ends_without_a_drift():
    """R4.2, R5: the plays of the step all resolve; the end is checked before step 3."""
    night = stacked([["9H", "JH", "KH"], ["QH", "10H"]], fate=["7H", "8H", "2D"])
    table = Table((night,), burial_mark=30)
    table.beat("9H load", "QH push")
    table.beat("JH push", "10H push")
    events = table.beat("KH push", "-")
    after = events[events.index(next(e for e in events if isinstance(e, PlaysRevealed))) :]
    assert [type(e) for e in after[:4]] == [PlaysRevealed, WagonPushed, CardFed, NightEnded]
    assert not any(isinstance(e, SnowDrifted) for e in after)
    assert first_night_end(table).through == "food"
    assert "Mara pushes the food wagon into Town!" in table.lines()


def test_r5_given_a_cold_snap_reaching_the_burial_mark_then_the_road_is_buried_before_any_play():
    """R5: the end is checked after step 1; nobody plays."""
    table = Table((stacked([[], []], fate=["9S"]),), burial_mark=3)
    kinds = [type(e) for e in table.events[:6]]
    assert kinds[2:5] == [FateFlipped, NightEnded, GratitudePaid]
    assert first_night_end(table) == NightEnded(night=1, ending="buried", through=None)
    assert "The snow reaches the burial mark (3): the road is buried." in table.lines()


def test_r5_given_a_drift_reaching_the_burial_mark_then_the_road_is_buried():
    """R5: the end is checked after step 3."""
    table = Table((stacked([["9H"], ["QH"]], fate=["7H"]),), burial_mark=2)
    events = table.beat("9H load", "QH push")
    assert SnowDrifted(by=2, snow=2) in events
    assert first_night_end(table).ending == "buried"


def last_watch_table(burial_mark: int) -> Table:
    """Mara's laden food wagon on 5, snow 3, eight beats played: every hand is empty."""
    fate = ["7H", "8H", "6H", "2D", "3D", "4D", "5D", "6D"]
    table = Table((stacked([["9H", "QH", "JH"], []], fate=fate),), burial_mark=burial_mark)
    table.beat("9H load", "-")
    table.beat("QH push", "-")
    table.beat("JH push", "-")
    for _ in range(5):
        table.beat("-", "-")
    return table


def test_r5_r7_given_every_hand_empty_then_the_last_watch_floods_before_it_rolls():
    """R7: snow +(3 + players) first; at the mark the road is buried though a wagon stood on 5."""
    table = last_watch_table(burial_mark=8)
    assert table.after(LastWatchBegan, 0).board.wagon("food").position == 5
    assert table.of(SnowRose) == [SnowRose(by=5, snow=8)]
    assert not table.of(WagonRolled)
    assert first_night_end(table) == NightEnded(night=1, ending="last_watch", through=None)
    assert "Every hand is empty: the Last Watch. The snow floods, then the laden wagons roll." in (
        table.lines()
    )


def test_r7_given_the_snow_below_the_mark_then_the_laden_wagons_on_one_to_five_roll():
    """R7: after the flood, the laden food wagon rolls into Town and is through."""
    table = last_watch_table(burial_mark=9)
    assert table.of(WagonRolled) == [WagonRolled(wagon="food", position=6)]
    assert first_night_end(table) == NightEnded(night=1, ending="last_watch", through="food")
    assert "At the Last Watch, Mara's food wagon is through." in table.lines()


def test_r7_given_only_a_laden_wagon_on_zero_then_the_snow_floods_until_the_road_buries():
    """R7: a laden wagon on 0 never rolls; the flood repeats until the burial mark."""
    fate = ["7C", "8C", "9C", "10C", "JC", "QC", "KC", "2H"]
    table = Table((stacked([["9D"], []], fate=fate),), burial_mark=20)
    table.beat("9D load", "-")
    for _ in range(7):
        table.beat("-", "-")
    assert [e.snow for e in table.of(SnowRose)] == [6, 11, 16, 21]
    medicine = table.after(NightEnded, 0).board.wagon("medicine")
    assert not table.of(WagonRolled) and medicine.position == 0 and medicine.laden
    assert first_night_end(table).through is None


def test_r6_given_the_whiteout_then_the_furthest_laden_wagon_that_moved_is_through():
    """R6: food on 2 beats medicine on 1; both laden."""
    night = stacked([["9H", "2C", "KS"], ["9D", "4C", "8S"]], fate=["7H", "8H", "2D"], whiteout=3)
    table = Table((night,), burial_mark=30)
    table.beat("9H load", "9D load")
    table.beat("2C feed", "4C feed")
    table.beat("KS feed", "8S feed")
    assert first_night_end(table) == NightEnded(night=1, ending="whiteout", through="food")
    assert "The whiteout: Mara's food wagon is through." in table.lines()
    assert table.last(GratitudePaid).lines == (
        Repayment(seat=0, stores_through=27, wages=4, long_watch=5, total=36),
        Repayment(seat=1, stores_lost=-9, wages=4, long_watch=5, total=0),
    )


def gambit_table(**options: object) -> Table:
    """The firewood wagon rolled empty; Mara's 9 of hearts is laden on 0; the whiteout."""
    night = stacked([["9H", "QD", "8H"], ["8C", "6D"]], fate=["7C"], whiteout=1)
    table = Table((night,), burial_mark=30, **options)
    table.beat("9H load", "-")
    return table


def test_r6_given_a_laden_wagon_on_zero_and_an_empty_wagon_that_rolled_then_the_gambit_is_called():
    """R6: neither stops the Gambit; every seat holding cards owes one more card."""
    table = gambit_table()
    assert table.last(GambitCalled) == GambitCalled(seats=(0, 1))
    assert GAME.to_act(table.state) == (0, 1) and table.view(None).phase == "gambit"
    assert "No laden wagon has moved: the Gambit! Mara and Bryn each commit one more card." in (
        table.lines()
    )
    legal = table.legal(0)
    assert Commit(card="QD", play="fling") in legal and Commit(card="2S", play="watch") in legal
    assert {c.play for c in legal} == {"fling", "watch"} and len(legal) == 7


def test_r6_given_a_play_that_is_not_a_fling_or_watch_in_the_gambit_then_it_is_refused():
    """R6: hearts, diamonds and clubs are flung; spades keep watch."""
    table = gambit_table()
    assert table.refuses_play(0, "QD load").startswith("in the Gambit you fling")
    assert table.refuses_play(0, "2S fling") == "a spade cannot be flung; it keeps watch"
    assert table.refuses_play(0, "QD watch") == (
        "only a spade keeps watch; fling the Queen of diamonds onto the medicine wagon"
    )


def test_r6_given_the_gambit_then_the_largest_flung_total_is_through_wherever_it_stands():
    """R6: medicine on 0 beats firewood on 1; its flings become stores; stores aboard settle."""
    table = gambit_table()
    events = table.beat("QD fling", "8C fling")
    assert [e for e in events if isinstance(e, CardFlung)] == [
        CardFlung(seat=0, card="QD", wagon="medicine"),
        CardFlung(seat=1, card="8C", wagon="firewood"),
    ]
    assert first_night_end(table) == NightEnded(night=1, ending="gambit", through="medicine")
    assert "The Gambit goes to Mara's medicine wagon: it is through." in table.lines()
    paid = table.last(GratitudePaid).lines
    assert paid[0] == Repayment(seat=0, stores_through=30, stores_lost=-9, total=21)
    assert paid[1].stores_through == 0 and paid[1].long_watch == 5


def test_r6_given_a_fling_onto_a_wagon_you_already_backed_then_it_adds_to_your_stake():
    """R6: Mara's 8 of hearts joins her 9 of hearts on the food wagon; both pay x3."""
    table = gambit_table()
    table.beat("8H fling", "6D fling")
    assert first_night_end(table).through == "food"
    assert table.last(GratitudePaid).lines[0].stores_through == 3 * (9 + 8)


def test_r6_gambit_tie_goes_to_highest_flung_card():
    """R6: food 9 against medicine 5 + 4: the 9 of hearts is the highest flung card."""
    night = stacked([["9H"], ["5D"], ["4D"]], fate=["7C"], whiteout=1)
    table = Table((night,), players=3, burial_mark=30)
    table.beat("-", "-", "-")
    table.beat("9H fling", "5D fling", "4D fling")
    assert first_night_end(table).through == "food"
    assert "The Gambit goes to Mara's food wagon: it is through." in table.lines()


def test_r6_h6_given_a_gambit_tie_on_the_highest_card_then_fate_is_flipped_until_a_tied_suit():
    """R6: the 7 of hearts against the 7 of diamonds; Fate shows clubs, spades, then diamonds."""
    night = stacked([["7H"], ["7D"]], fate=["7C", "2C", "3S", "4D"], whiteout=1)
    table = Table((night,), burial_mark=30)
    table.beat("-", "-")
    table.beat("7H fling", "7D fling")
    flips = [e.card for e in table.of(FateFlipped) if e.tie_break]
    assert flips == ["2C", "3S", "4D"] and first_night_end(table).through == "medicine"
    assert "Fate is flipped to break the tie: the 3 of spades." in table.lines()


def test_r6_given_a_gambit_tie_when_fate_runs_out_then_the_road_counts_as_buried():
    """R6: six players hold every heart and diamond; Fate after the whiteout is clubs and spades."""
    table = Table((six_players_fate_holding_only_clubs_and_spades(("7H", "7D"), []),), players=6)
    spades = [next(c for c in table.state.seats[s].hand if c.endswith("S")) for s in range(2, 6)]
    table.beat("7H fling", "7D fling", *(f"{card} watch" for card in spades))
    assert len([e for e in table.of(FateFlipped) if e.tie_break]) == 12
    assert first_night_end(table) == NightEnded(night=1, ending="gambit", through=None)
    assert "Fate runs out before the Gambit's tie is broken: the road counts as buried." in (
        table.lines()
    )
    assert table.last(GratitudePaid).lines[0].stores_through == 0


def test_r6_h7_given_no_card_flung_in_the_gambit_then_the_road_counts_as_buried():
    """R6: every seat keeps watch (+3 each); nothing races."""
    table = Table((stacked([["8S"], ["9S"]], whiteout=0),), burial_mark=30)
    assert table.view(None).phase == "gambit"
    events = table.beat("8S watch", "9S watch")
    assert [e for e in events if isinstance(e, WatchKept)] == [
        WatchKept(seat=0, card="8S"),
        WatchKept(seat=1, card="9S"),
    ]
    assert first_night_end(table) == NightEnded(night=1, ending="gambit", through=None)
    assert "Nothing was flung in the Gambit: the road counts as buried." in table.lines()
    assert [line.total for line in table.last(GratitudePaid).lines] == [8, 8]


def test_r7_h10_the_last_watch_floods_by_three_plus_the_players_the_table_opened_with():
    """R7, H10: three players opened the table; one conceded; the flood is still 3 + 3."""
    fate = ["7C", "8C", "9C", "10C", "JC", "QC", "KC", "2D"]
    table = Table((stacked([[], [], []], fate=fate),), players=3, burial_mark=60)
    table.concede(2)
    for _ in range(8):
        table.beat("-", "-")
    assert table.of(SnowRose)[0] == SnowRose(by=6, snow=6)
    assert "The snow rises 6, to 6." in table.lines()
