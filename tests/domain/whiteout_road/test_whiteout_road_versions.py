"""Rules versions 1 and 2 (docs/rules/whiteout-road.md): where they differ, and that 1 is kept.

Version 1 followed our ruling H8 (the Long Watch needs a watch-pile); version 2 follows the
rulebook and R9 (a tie pays each the full +5, a tie at zero cards too). Each situation the issue
names is played under both: the road buried before any play, two wagons pushed into Town, and a
Gambit of flings only.
"""

from __future__ import annotations

import hashlib

import msgspec
from whiteout_road_random import random_match
from whiteout_road_support import Table, stacked

from domain.registry import latest, lookup, versions
from domain.whiteout_road import GAME, GAME_V1, GAME_V2
from domain.whiteout_road.events import GratitudePaid, NightEnded, Repayment

# The events of random matches 0 to 59 (whiteout_road_random), hashed on main before version 2
# existed: version 1 must go on producing them byte for byte.
V1_MATCHES = 60
V1_DIGEST = "223c5d1deb34a9c3f559907f10ee946f06804825dcda4515c3c1d54c0a827846"


def buried_before_any_play(game) -> Table:
    """Night 1: the first Fate card is a cold snap that reaches the burial mark of 3."""
    return Table((stacked([[], []], fate=["9S"]),), burial_mark=3, game=game)


def two_wagons_pushed_into_town(game) -> Table:
    """Night 1: both seats load and then push, nobody feeds; both wagons reach Town at once."""
    mara, bryn = ["9H", "QH", "JH", "10H", "KH"], ["5D", "QD", "JD", "10D", "KD"]
    night = stacked([mara, bryn], fate=["7H", "2D", "8H", "3D", "2C"])
    table = Table((night,), burial_mark=30, game=game)
    table.beat("9H load", "5D load")
    for mine, yours in (("QH", "QD"), ("JH", "JD"), ("10H", "10D"), ("KH", "KD")):
        table.beat(f"{mine} push", f"{yours} push")
    return table


def gambit_of_flings_only(game) -> Table:
    """Night 1: the whiteout is the first Fate card, so the Gambit; both seats fling."""
    table = Table((stacked([["9H"], ["8D"]], whiteout=0),), game=game)
    table.beat("9H fling", "8D fling")
    return table


def night_one(table: Table) -> tuple[NightEnded, tuple[Repayment, ...]]:
    """How night 1 ended and what it paid."""
    return table.of(NightEnded)[0], table.of(GratitudePaid)[0].lines


def test_latest_whiteout_road_is_version_2_and_version_1_stays_registered():
    """Given the registry, then new matches get version 2 and version 1 is still looked up."""
    assert versions("whiteout-road") == ["1", "2"]
    assert latest("whiteout-road") is GAME is GAME_V2
    assert lookup("whiteout-road", "1") is GAME_V1
    assert (GAME_V1.rules_version, GAME_V2.rules_version) == ("1", "2")


def test_r9_h8_v1_given_the_road_buried_before_any_play_then_nobody_gets_the_long_watch():
    """H8 (version 1): every watch-pile is empty, and nobody is paid the Long Watch."""
    ended, lines = night_one(buried_before_any_play(GAME_V1))
    assert ended == NightEnded(night=1, ending="buried", through=None)
    assert lines == (Repayment(seat=0), Repayment(seat=1))


def test_r9_v2_given_the_road_buried_before_any_play_then_each_seat_gets_the_full_5():
    """R9 (version 2): both watch-piles tie at zero cards, and a tie pays each the full +5."""
    table = buried_before_any_play(GAME_V2)
    ended, lines = night_one(table)
    assert ended == NightEnded(night=1, ending="buried", through=None)
    assert lines == (
        Repayment(seat=0, long_watch=5, total=5),
        Repayment(seat=1, long_watch=5, total=5),
    )
    assert "Mara: the Long Watch +5: +5 tonight, 5 in all." in table.lines()


def test_r9_h8_v1_given_two_wagons_pushed_into_town_then_nobody_gets_the_long_watch():
    """H8 (version 1): food is through (R8); stores and pushes pay, no Long Watch."""
    ended, lines = night_one(two_wagons_pushed_into_town(GAME_V1))
    assert ended == NightEnded(night=1, ending="through", through="food")
    assert lines == (
        Repayment(seat=0, stores_through=27, pushes=8, total=35),
        Repayment(seat=1, stores_lost=-5, total=-5),
    )


def test_r9_v2_given_two_wagons_pushed_into_town_then_each_seat_gets_the_full_5():
    """R9 (version 2): the same night, and each seat's empty watch-pile ties for the +5."""
    ended, lines = night_one(two_wagons_pushed_into_town(GAME_V2))
    assert ended == NightEnded(night=1, ending="through", through="food")
    assert lines == (
        Repayment(seat=0, stores_through=27, pushes=8, long_watch=5, total=40),
        Repayment(seat=1, stores_lost=-5, long_watch=5, total=0),
    )


def test_r9_h8_v1_given_a_gambit_of_flings_only_then_nobody_gets_the_long_watch():
    """H8 (version 1): the 9 of hearts outraces the 8 of diamonds; nobody kept watch."""
    ended, lines = night_one(gambit_of_flings_only(GAME_V1))
    assert ended == NightEnded(night=1, ending="gambit", through="food")
    assert lines == (Repayment(seat=0, stores_through=27, total=27), Repayment(seat=1))


def test_r9_v2_given_a_gambit_of_flings_only_then_each_seat_gets_the_full_5():
    """R9 (version 2): the same Gambit, and both empty watch-piles tie for the +5."""
    ended, lines = night_one(gambit_of_flings_only(GAME_V2))
    assert ended == NightEnded(night=1, ending="gambit", through="food")
    assert lines == (
        Repayment(seat=0, stores_through=27, long_watch=5, total=32),
        Repayment(seat=1, long_watch=5, total=5),
    )


def test_r9_v2_given_one_seat_fed_a_card_then_only_that_seat_gets_the_long_watch():
    """R9 (version 2): a tie at zero needs every pile empty; one card fed wins it alone."""
    table = Table((stacked([["2C"], ["9H"]], fate=["2D", "9S"]),), burial_mark=3, game=GAME_V2)
    table.beat("2C feed", "9H load")
    assert [line.long_watch for line in night_one(table)[1]] == [5, 0]


def test_r9_v2_h9_given_a_conceded_seat_then_it_gets_nothing_while_the_seats_still_in_tie_at_zero():
    """H9 and R9 (version 2): the seat that conceded is repaid zeros; the two still in load,
    nobody feeds, the road is buried, and both tie at zero cards for the full +5."""
    night = stacked([["9H"], ["8D"], []], fate=["2D", "9S"])
    table = Table((night,), players=3, burial_mark=3, game=GAME_V2)
    table.concede(2)
    table.beat("9H load", "8D load")
    assert night_one(table)[1] == (
        Repayment(seat=0, long_watch=5, total=5),
        Repayment(seat=1, long_watch=5, total=5),
        Repayment(seat=2),
    )


def digest(game, matches: int) -> str:
    """The SHA-256 of the canonical bytes of every event of the first random matches."""
    hashed = hashlib.sha256()
    for index in range(matches):
        for batch in random_match(index, game):
            for event in batch.events:
                hashed.update(msgspec.json.encode(event))
    return hashed.hexdigest()


def test_given_version_1_then_its_random_matches_are_byte_for_byte_what_they_were_before_version_2():
    """Given the same seeds and commands, then version 1's events hash as they did on main."""
    assert digest(GAME_V1, V1_MATCHES) == V1_DIGEST


def test_given_version_2_then_the_same_seeds_and_commands_give_other_events():
    """Given the same random matches under version 2, then some night repays differently."""
    assert digest(GAME_V2, V1_MATCHES) != V1_DIGEST
