"""The wagon tie-break (R8), step by step: furthest, most stores, highest card aboard, Fate."""

from __future__ import annotations

from whiteout_road_scripts import six_players_fate_holding_only_clubs_and_spades
from whiteout_road_support import Table, stacked

from domain.whiteout_road.events import FateFlipped, NightEnded, SnowRose, WagonRolled


def whiteout_after(
    mara: list[str], bryn: list[str], fate: list[str], *beats: tuple[str, str]
) -> Table:
    """Two players play some beats; the whiteout is the Fate card after ``fate``."""
    table = Table((stacked([mara, bryn], fate=fate, whiteout=len(fate)),), burial_mark=30)
    for beat in beats:
        table.beat(*beat)
    return table


def through(table: Table) -> str | None:
    """The wagon through on night 1."""
    return table.of(NightEnded)[0].through


def test_r8_given_laden_wagons_that_moved_then_the_furthest_is_through():
    """R8 step 1: furthest (food on 2 against medicine on 1)."""
    beats = [("9H load", "5D load"), ("-", "-"), ("-", "-")]
    table = whiteout_after(["9H"], ["5D"], ["7H", "2D", "8H"], *beats)
    assert table.after(NightEnded, 0).board.wagon("food").position == 2
    assert through(table) == "food"


def test_r8_given_the_same_space_then_the_most_stores_aboard_wins():
    """R8 step 2: most stores, by pip total (9 against 5 + 3 = 8)."""
    table = whiteout_after(
        ["9H", "3D"], ["5D"], ["7H", "2D"], ("9H load", "5D load"), ("3D load", "-")
    )
    board = table.after(NightEnded, 0).board
    assert board.wagon("food").position == board.wagon("medicine").position == 1
    assert through(table) == "food"


def test_r8_given_equal_stores_then_the_highest_card_aboard_wins():
    """R8 step 3: 9 against 5 + 4; the 9 of hearts is the highest card aboard."""
    table = whiteout_after(
        ["9H", "4D"], ["5D"], ["7H", "2D"], ("9H load", "5D load"), ("4D load", "-")
    )
    assert through(table) == "food"


def test_r8_h5_given_equal_highest_cards_then_fate_is_flipped_until_a_tied_wagons_suit():
    """R8 step 4: the 9 of hearts against the 9 of diamonds; Fate shows clubs, then diamonds."""
    night = stacked([["9H"], ["9D"]], fate=["7H", "2D", "3C", "8D"], whiteout=2)
    table = Table((night,), burial_mark=30)
    table.beat("9H load", "9D load")
    table.beat("-", "-")
    assert [e.card for e in table.of(FateFlipped) if e.tie_break] == ["3C", "8D"]
    assert through(table) == "medicine"
    assert table.after(NightEnded, 0).board.wagon("firewood").position == 0
    assert "Fate is flipped to break the tie: the 3 of clubs." in table.lines()
    assert "The whiteout: Bryn's medicine wagon is through." in table.lines()


def test_r8_given_fate_runs_out_in_a_tie_then_the_food_wagon_wins_as_hearts_come_first():
    """R8 step 5: six players hold every other heart and diamond; hearts, diamonds, clubs."""
    night = six_players_fate_holding_only_clubs_and_spades(("9H", "9D"), ["7H", "2D"], spades=0)
    table = Table((night,), players=6, burial_mark=30)
    table.beat("9H load", "9D load", "-", "-", "-", "-")
    table.beat("-", "-", "-", "-", "-", "-")
    flips = [e.card for e in table.of(FateFlipped) if e.tie_break]
    assert len(flips) == 10 and all(card[-1] in "CS" for card in flips)
    assert through(table) == "food"


def test_r4_r8_given_two_wagons_pushed_into_town_in_one_step_then_the_tie_break_decides():
    """R4.2: both laden wagons reach 6 in one step; the food wagon has more stores aboard."""
    mara, bryn = ["9H", "QH", "JH", "10H", "KH"], ["5D", "QD", "JD", "10D", "KD"]
    night = stacked([mara, bryn], fate=["7H", "2D", "8H", "3D", "2C"])
    table = Table((night,), burial_mark=30)
    table.beat("9H load", "5D load")
    table.beat("QH push", "QD push")
    table.beat("JH push", "JD push")
    table.beat("10H push", "10D push")
    table.beat("KH push", "KD push")
    board = table.after(NightEnded, 0).board
    assert board.wagon("food").position == board.wagon("medicine").position == 6
    assert table.of(NightEnded)[0] == NightEnded(night=1, ending="through", through="food")


def test_r7_r8_given_two_wagons_rolling_into_town_at_the_last_watch_then_the_tie_break_decides():
    """R7: both laden wagons on 5 roll into Town together; the highest card aboard wins."""
    mara, bryn = ["9H", "QH", "JH", "10H"], ["5D", "4D", "QD", "JD", "10D"]
    fate = ["7H", "2D", "3C", "4C", "5C", "6C", "7C", "8C"]
    table = Table((stacked([mara, bryn], fate=fate),), burial_mark=40)
    table.beat("9H load", "5D load")
    table.beat("QH push", "4D load")
    table.beat("JH push", "QD push")
    table.beat("10H push", "JD push")
    table.beat("-", "10D push")
    for _ in range(3):
        table.beat("-", "-")
    assert len(table.of(SnowRose)) == 2 and len(table.of(WagonRolled)) == 4
    assert table.of(NightEnded)[0] == NightEnded(night=1, ending="last_watch", through="food")
