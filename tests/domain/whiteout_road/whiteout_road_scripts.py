"""Longer scripted nights shared by several test files."""

from __future__ import annotations

from typing import Any

from whiteout_road_support import Table, stacked

from domain.whiteout_road.cards import CARDS

HEARTS_AND_DIAMONDS = [card for card in CARDS if card[-1] in "HD"]
CLUBS_AND_SPADES = [card for card in CARDS if card[-1] in "CS"]


def food_through_on_a_flip(**options: Any) -> Table:
    """Mara's 9 of hearts rides the food wagon; pushes take it to 5; Fate rolls it into Town."""
    night = stacked([["9H", "JH"], ["QH", "10H"]], fate=["7H", "8H", "6H"])
    table = Table((night,), burial_mark=30, **options)
    table.beat("9H load", "QH push")
    table.beat("JH push", "10H push")
    return table


def six_hands_holding_every_heart_and_diamond(
    first: tuple[str, str], fate_before: list[str], spades: int
) -> list[list[str]]:
    """Six hands of 6 holding every heart and diamond not in ``fate_before``; seat 0 and 1 get
    ``first``, seats 2 to 5 a spade each when ``spades``; clubs and spades fill the rest."""
    reds = [c for c in HEARTS_AND_DIAMONDS if c not in (*first, *fate_before)]
    blacks = [c for c in CLUBS_AND_SPADES if c not in fate_before]
    spade_cards = [c for c in blacks if c.endswith("S")][:spades]
    fill = [c for c in blacks if c not in spade_cards]
    hands: list[list[str]] = [[first[0]], [first[1]], *([s] for s in spade_cards)]
    hands += [[] for _ in range(6 - len(hands))]
    pool = reds + fill
    for hand in hands:
        while len(hand) < 6:
            hand.append(pool.pop(0))
    return hands


def six_players_fate_holding_only_clubs_and_spades(
    first: tuple[str, str], fate_before: list[str], spades: int = 4
) -> list[str]:
    """A six-player night: after ``fate_before`` and the whiteout, Fate is clubs and spades."""
    hands = six_hands_holding_every_heart_and_diamond(first, fate_before, spades)
    return stacked(hands, fate=fate_before, whiteout=len(fate_before))
