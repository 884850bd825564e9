"""Repayment (R9), three nights and the winner (R10), conceding (R10)."""

from __future__ import annotations

from whiteout_road_scripts import food_through_on_a_flip
from whiteout_road_support import Table, stacked

from domain.core.errors import NotYourTurn
from domain.whiteout_road import GAME_V1 as GAME
from domain.whiteout_road.commands import Commit
from domain.whiteout_road.events import (
    GratitudePaid,
    NightDealt,
    NightEnded,
    PlaysRevealed,
    Repayment,
    RoadEnded,
    SeatConceded,
    SnowDrifted,
)
from domain.whiteout_road.nights import winners
from domain.whiteout_road.outcome import placements
from domain.whiteout_road.state import Over, Traveller, become


def quick_night(*feeds: list[str]) -> list[str]:
    """A night of as many beats as each seat's feeds, then a cold snap (burial mark 3)."""
    fate = [*["2D", "3D", "4D"][:len(feeds[0])], "9S"]
    return stacked([list(f) for f in feeds], fate=fate)


def play_quick_night(table: Table, *feeds: list[str]) -> None:
    """Every seat feeds its listed cards, one a beat."""
    for beat in zip(*feeds):
        table.beat(*(f"{card} feed" for card in beat))


def test_r9_h8_given_a_wagon_through_then_stores_pay_x3_and_each_push_into_it_pays_2():
    """R9: Mara's 9 of hearts x3 and one push; Bryn's two pushes; no watch-pile, no Long Watch."""
    table = food_through_on_a_flip()
    assert table.last(GratitudePaid) == GratitudePaid(
        night=1,
        lines=(
            Repayment(seat=0, stores_through=27, pushes=2, total=29),
            Repayment(seat=1, pushes=4, total=4),
        ),
    )
    assert "Mara: stores through +27, pushes +2: +29 tonight, 29 in all." in table.lines()
    assert [p.score for p in table.view(None).players] == [29, 4]


def test_r9_given_stores_on_a_wagon_a_rival_beat_to_town_then_they_count_against_you():
    """R9: 9 loaded on the medicine wagon is -9 when the food wagon is through; half pips count."""
    night = stacked([["9H", "QH", "JH"], ["9D", "10H", "KD"]], fate=["7H", "8H", "6H", "5H"])
    table = Table((night,), burial_mark=30)
    table.beat("9H load", "9D load")
    table.beat("QH push", "10H push")
    table.beat("JH load", "KD feed")
    lines = table.last(GratitudePaid).lines
    assert table.of(NightEnded)[0].through == "food"
    assert lines[0] == Repayment(seat=0, stores_through=3 * (9 + 5), pushes=2, total=44)
    assert lines[1] == Repayment(seat=1, stores_lost=-9, pushes=2, wages=1, long_watch=5, total=-1)


def test_r9_given_a_buried_road_then_stores_wash_to_0_and_wages_and_the_long_watch_still_pay():
    """R9: no repayment, no penalty for stores; a spade fed pays 3, another card 1; Long Watch 5."""
    night = stacked([["9H", "QH"], ["KS", "2C"]], fate=["7H", "9S"])
    table = Table((night,), burial_mark=4)
    table.beat("9H load", "KS feed")
    table.beat("QH push", "2C feed")
    assert table.of(NightEnded)[0].ending == "buried"
    assert table.last(GratitudePaid).lines == (
        Repayment(seat=0),
        Repayment(seat=1, wages=4, long_watch=5, total=9),
    )
    assert "Mara: nothing: +0 tonight, 0 in all." in table.lines()


def test_r9_the_long_watch_goes_to_the_most_cards_fed_and_every_tie_gets_the_full_5():
    """R9: two clubs (2 cards, +2) beat one spade (1 card, +3); at equal counts both get 5."""
    night = stacked([["2C", "3C"], ["KS", "9H"], ["4C", "5C"]], fate=["2D", "3D", "9S"])
    table = Table((night,), players=3, burial_mark=3)
    table.beat("2C feed", "KS feed", "4C feed")
    table.beat("3C feed", "9H load", "5C feed")
    assert [line.long_watch for line in table.last(GratitudePaid).lines] == [5, 0, 5]
    assert [line.wages for line in table.last(GratitudePaid).lines] == [2, 3, 2]


def test_r10_given_three_nights_then_gratitude_carries_and_the_match_ends_after_the_third():
    """R10: each night is a fresh deal; gratitude adds up; no fourth night is dealt."""
    nights = (quick_night(["KS"], ["2C"]), quick_night(["2C"], ["KS"]), quick_night(["3S"], ["3C"]))
    table = Table(nights, burial_mark=3)
    play_quick_night(table, ["KS"], ["2C"])
    assert [p.score for p in table.view(None).players] == [8, 6]
    assert table.view(0).night == 2 and table.view(0).players[0].watch_pile == ()
    play_quick_night(table, ["2C"], ["KS"])
    play_quick_night(table, ["3S"], ["3C"])
    assert [e.night for e in table.of(NightDealt)] == [1, 2, 3]
    assert table.last(RoadEnded) == RoadEnded(winners=(0,))
    outcome = GAME.outcome(table.state)
    assert outcome is not None and outcome.scores == (22, 20) and outcome.placements == (1, 2)
    assert [n.night for n in table.view(None).nights] == [1, 2, 3]
    assert table.view(None).phase == "over" and GAME.to_act(table.state) == ()
    assert "Mara wins the match with 22 gratitude." in table.lines()


def test_r10_given_equal_gratitude_then_the_best_single_night_wins():
    """R10: 11 + 7 + 6 against 9 + 9 + 6: both 24, Mara's best night is 11."""
    nights = (
        quick_night(["KS", "QS"], ["8S", "2C"]),
        quick_night(["2C", "3C"], ["8S", "2H"]),
        quick_night(["2C"], ["2H"]),
    )
    table = Table(nights, burial_mark=3)
    play_quick_night(table, ["KS", "QS"], ["8S", "2C"])
    play_quick_night(table, ["2C", "3C"], ["8S", "2H"])
    play_quick_night(table, ["2C"], ["2H"])
    assert [p.score for p in table.view(None).players] == [24, 24]
    assert table.last(RoadEnded).winners == (0,)


def test_r10_given_equal_gratitude_and_equal_best_nights_then_the_win_is_shared():
    """R10: 8 + 6 + 6 against 6 + 8 + 6: still tied, both win."""
    nights = (quick_night(["KS"], ["2C"]), quick_night(["2C"], ["KS"]), quick_night(["3C"], ["4C"]))
    table = Table(nights, burial_mark=3)
    play_quick_night(table, ["KS"], ["2C"])
    play_quick_night(table, ["2C"], ["KS"])
    play_quick_night(table, ["3C"], ["4C"])
    assert table.last(RoadEnded).winners == (0, 1)
    assert "Mara and Bryn share the win with 20 gratitude each." in table.lines()


def test_r10_h11_placements_put_the_winners_first_then_gratitude_then_the_best_night():
    """R10: winners share first place; the rest follow in competition ranking (1, 1, 3, 3, 5)."""
    seats = (
        Traveller(gratitude=30, nights=(10, 10, 10)),
        Traveller(gratitude=30, nights=(10, 10, 10)),
        Traveller(gratitude=20, nights=(10, 5, 5)),
        Traveller(gratitude=20, nights=(10, 5, 5)),
        Traveller(gratitude=20, nights=(8, 6, 6)),
    )
    table = Table(players=5)
    ranked = become(Over, table.state, seats=seats)
    over = become(Over, ranked, winners=winners(ranked))
    assert over.winners == (0, 1) and placements(over) == (1, 1, 3, 3, 5)


def test_r10_h9_given_a_concession_then_the_hand_is_set_aside_and_the_seat_commits_nothing_more():
    """R10: the seat owes nothing, its hand is set aside face down, its commands are refused."""
    table = Table((stacked([[], [], []]),), players=3)
    hand = table.state.seats[2].hand
    events = table.concede(2)
    assert events == [SeatConceded(seat=2, set_aside=hand)]
    assert GAME.to_act(table.state) == (0, 1)
    seat = table.view(None).players[2]
    assert seat.conceded and seat.hand_size == 0 and table.view(2).hand == ()
    assert table.refuses(2, Commit(card=hand[0], play="feed"), NotYourTurn) == (
        "you have conceded this match"
    )
    assert "Cato concedes; their cards are set aside face down." in table.lines()


def test_r10_given_the_last_owing_seat_concedes_then_the_others_cards_are_revealed_at_once():
    """R10, R4.2: nobody else owes a card, so the reveal happens in the concession."""
    table = Table((stacked([["9H"], ["QD"], []], fate=["7H"]),), players=3)
    table.commit(0, "9H load")
    table.commit(1, "QD push")
    events = table.concede(2)
    reveal = next(e for e in events if isinstance(e, PlaysRevealed))
    assert [p.seat for p in reveal.plays] == [0, 1]
    assert next(e for e in events if isinstance(e, SnowDrifted)).by == 2


def test_r10_h9_given_a_seat_conceding_with_a_card_committed_then_that_card_is_set_aside_unseen():
    """R10, R11: the pending card goes aside with the hand; the others still owe theirs."""
    table = Table((stacked([["9H"], [], []]),), players=3)
    table.commit(0, "9H load")
    events = table.concede(0)
    assert "9H" in events[0].set_aside and GAME.to_act(table.state) == (1, 2)
    assert not any("9 of hearts" in line for line in table.lines(None))


def test_r10_h9_given_one_seat_left_in_then_it_wins_at_once():
    """R10: the last seat still in wins the match."""
    table = Table()
    events = table.concede(1)
    assert events[-1] == RoadEnded(winners=(0,))
    outcome = GAME.outcome(table.state)
    assert outcome is not None and outcome.winners == (0,) and outcome.placements == (1, 2)


def test_r10_h9_given_a_conceded_seat_then_it_is_repaid_nothing_dealt_nothing_and_cannot_win():
    """R10: it keeps its 8 gratitude, more than anyone, but the win goes to the seats still in."""
    nights = (
        quick_night(["KS"], ["2C"], ["2H"]),
        stacked([["9H"], ["9D"], ["9C"]], fate=["2D", "9S"]),
        stacked([[], []], fate=["9S"]),  # dealt to the two seats still in
    )
    table = Table(nights, players=3, burial_mark=3)
    play_quick_night(table, ["KS"], ["2C"], ["2H"])
    table.concede(0)
    table.beat("9D load", "9C load")
    assert table.of(GratitudePaid)[1].lines[0] == Repayment(seat=0)
    assert table.of(NightDealt)[2].hands[0] == ()
    assert [p.score for p in table.view(None).players] == [8, 6, 6]
    assert table.last(RoadEnded).winners == (1, 2)
    assert GAME.outcome(table.state).placements == (3, 1, 1)
