"""A tournament's exports: the matches CSV's round and table columns, the crosstable."""

from __future__ import annotations

import hashlib

from domain.games import GAMES
from projections.tables import MATCH_COLUMNS, match_rows, tournament_table
from tests.replay.random_matches import exported
from tests.tournament.bundles import entrants, identity, play_table
from tests.tournament.scripted import settings


def test_a_tournament_tables_rows_carry_its_round_and_table():
    """Given round 2, table 3 of a tournament played, then each of its rows in the matches
    table has round 2 and table 3 in the last two columns; a match outside a tournament,
    even labelled alike, has none."""
    rules, seed = settings("swiss"), hashlib.sha256(b"exports").digest()
    played = play_table(GAMES["wick-and-ember"], entrants(2), 7, "round 2 table 3", rules,
                        identity(rules, seed))

    rows = match_rows(exported(played))

    assert MATCH_COLUMNS[-2:] == ("round", "table")
    assert {row[-2:] for row in rows} == {(2, 3)}
    assert tournament_table(None, "round 2 table 3") == (None, None)
    assert tournament_table(played.match_id, "friendly") == (None, None)
