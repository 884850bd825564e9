"""Visibility (R11): the seat view, the spectator's view and the log in the rulebook's terms."""

from __future__ import annotations

import msgspec
from whiteout_road_scripts import food_through_on_a_flip
from whiteout_road_support import Table, stacked

from domain.whiteout_road.commands import Commit
from domain.whiteout_road.observer import StoreView, WhiteoutView


def test_r11_the_view_has_exactly_these_fields_and_is_tagged_with_the_game():
    """R11: the view's fields, and its tag for the API's union of boards."""
    assert WhiteoutView.__struct_fields__ == (
        "you",
        "night",
        "phase",
        "players",
        "hand",
        "commitment",
        "wagons",
        "snow",
        "burial_mark",
        "fate_discard",
        "fate_size",
        "lost",
        "nights",
        "result",
        "legal_actions",
    )
    table = Table()
    encoded = msgspec.json.encode(table.view(0))
    assert encoded.startswith(b'{"type":"whiteout-road","you":0,"night":1,"phase":"beat"')
    player = msgspec.to_builtins(table.view(0).players[1])
    assert set(player) == {
        "seat",
        "name",
        "you",
        "hand_size",
        "committed",
        "watch_pile",
        "score",
        "conceded",
    }


def test_r11_given_a_seat_then_it_sees_its_own_hand_and_legal_actions_and_nobody_elses():
    """R11: a hand is private to its owner; a spectator sees no hand and no legal action."""
    table = Table((stacked([["7C"], ["KH"]]),))
    mine, spectator = table.view(0), table.view(None)
    assert "7C" in mine.hand and "KH" not in mine.hand and len(mine.hand) == 8
    assert Commit(card="7C", play="feed") in mine.legal_actions
    assert all(c.card in mine.hand for c in mine.legal_actions)
    assert spectator.hand == () and spectator.legal_actions == () and spectator.commitment is None
    assert [p.hand_size for p in spectator.players] == [8, 8]
    assert [p.you for p in mine.players] == [True, False]


def test_r11_the_fate_discard_and_size_are_public_and_its_order_is_never_shown():
    """R11: the Fate cards turned up, how many are left; never which comes next."""
    table = Table((stacked([[], []], fate=["7C", "8D"]),))
    table.beat("-", "-")
    view = table.view(None)
    assert view.fate_discard == ("7C", "8D") and view.fate_size == 33 - 2
    assert [name for name in WhiteoutView.__struct_fields__ if "fate" in name] == [
        "fate_discard",
        "fate_size",
    ]


def test_r11_the_wagons_show_their_space_and_every_store_with_its_owner():
    """R11: positions, laden, stores aboard (owner, card, pips caught) and pushes are public."""
    table = Table((stacked([["9H"], ["QH"]], fate=["7H", "2D"]),))
    table.beat("9H load", "QH push")
    food = table.view(1).wagons[0]
    assert (food.wagon, food.suit, food.position, food.laden) == ("food", "hearts", 2, True)
    assert food.stores == (StoreView(seat=0, card="9H", pips=9),)
    assert food.pushes == (StoreView(seat=1, card="QH", pips=0),)
    assert table.view(1).snow == 2


def test_r11_watch_piles_scores_and_the_nights_paid_are_public():
    """R11: watch-piles, scores, and each finished night's ending and repayment."""
    table = food_through_on_a_flip()
    view = table.view(None)
    assert view.night == 2 and [p.score for p in view.players] == [29, 4]
    (night,) = view.nights
    assert (night.night, night.ending, night.through) == (1, "through", "food")
    assert [line.total for line in night.repayment] == [29, 4]


def test_r11_given_the_match_over_then_the_view_shows_the_result():
    """R11: winners, scores and placements once the match is over."""
    table = Table()
    table.concede(1)
    view = table.view(None)
    assert view.phase == "over" and view.result is not None
    assert (view.result.winners, view.result.placements) == ((0,), (1, 2))


def test_r11_given_the_log_then_the_night_reads_in_the_rulebooks_terms():
    """R11: the opening lines, the deal told privately, the Fate cards and the drift in words."""
    table = Table((stacked([["9H"], ["QH"]], fate=["7C"]),), burial_mark=20)
    table.beat("9H load", "QH push")
    lines = table.lines()
    assert lines[:3] == [
        "Mara and Bryn set out on the Whiteout Road for three nights; "
        "the road is buried when the snow reaches 20.",
        "Night 1: each traveller is dealt 8 cards; the Fate deck holds 33 cards, the whiteout "
        "among them. Wagons and snow stand at 0.",
        "The Fate card is the 7 of clubs: the firewood wagon rolls to 1.",
    ]
    assert "The snow drifts 2, to 2." in lines
    assert table.private_lines(0)[0].startswith("You were dealt the 9 of hearts, ")
    assert "You committed the 9 of hearts to load onto the food wagon." in table.private_lines(0)
    assert not any("9 of hearts" in line for line in table.private_lines(1))
