"""Ember's two rules versions: both registered, version 2 the latest; the deal records the
version on the table, and version 1's deal is written byte for byte as it was played."""

from __future__ import annotations

from domain.core.codec import encode
from domain.ember import GAME, GAME_V1, GAME_V2
from domain.ember.events import Dealt
from domain.registry import latest, lookup, versions
from tests.domain.ember.ember_support import Table


def test_ember_carries_rules_versions_1_and_2_and_new_matches_get_2():
    assert versions("ember") == ["1", "2"]
    assert lookup("ember", "1") is GAME_V1 and lookup("ember", "2") is GAME_V2
    assert latest("ember") is GAME_V2 is GAME


def test_version_1s_deal_is_written_as_it_was_played_and_version_2s_names_its_version():
    first, second = Table(version="1"), Table(version="2")
    old, new = first.events[0], second.events[0]
    assert isinstance(old, Dealt) and isinstance(new, Dealt)
    assert b"rules_version" not in encode(old) and b"opening_draw" not in encode(old)
    assert b'"rules_version":"2","opening_draw":true' in encode(new)
    assert (first.board.rules_version, second.board.rules_version) == ("1", "2")
    assert (first.board.opening_draw, second.board.opening_draw) == (False, True)


def test_the_eh15_variant_is_recorded_in_the_deal_and_read_from_the_table():
    table = Table(first_player_skips_draw=True)
    assert b"opening_draw" not in encode(table.events[0])
    assert table.board.rules_version == "2" and not table.board.opening_draw
