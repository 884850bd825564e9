"""A tournament's exports: the matches CSV's round and table columns, the crosstable."""

from __future__ import annotations

import hashlib

from domain.games import GAMES
from domain.tournament import Pairing, RoundRecord, Table, TableResult
from domain.tournament.crosstable import crosstable, crosstable_csv, rows
from projections.tables import MATCH_COLUMNS, match_rows, tournament_table
from tests.replay.random_matches import exported
from tests.tournament.bundles import entrants, identity, play_table
from tests.tournament.scripted import WINTER_CUP, people, settings


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


def test_the_crosstable_names_each_rounds_result_and_opponent_by_rank():
    """Given the documented 4-entrant Swiss (Ash beats Bryn, Cato and Dell draw; Ash and Cato
    draw, Bryn beats Dell), then the crosstable reads each result against the opponent's
    rank, in standing order, as CSV and as JSON."""
    rules, names = settings("swiss", pairing="house"), people(4)
    history = [
        RoundRecord(pairing=Pairing(round=1, byes=[], tables=[Table(number=1, seats=[0, 1]),
                                                             Table(number=2, seats=[2, 3])]),
                    results=[TableResult(round=1, table=1, placements=[1, 2]),
                             TableResult(round=1, table=2, placements=[1, 1])]),
        RoundRecord(pairing=Pairing(round=2, byes=[], tables=[Table(number=1, seats=[0, 2]),
                                                             Table(number=2, seats=[1, 3])]),
                    results=[TableResult(round=2, table=1, placements=[1, 1]),
                             TableResult(round=2, table=2, placements=[1, 2], forfeited=[3])]),
    ]
    table = crosstable(rules, WINTER_CUP, names, history)

    assert crosstable_csv(table, 2, 2) == (
        "rank,entrant,name,points,r1,r2\n"
        "1,0,Ash,1.5,W 3,D 2\n"
        "2,2,Cato,1,D 4,D 1\n"
        "3,1,Bryn,1,L 1,WF 4\n"
        "4,3,Dell,0.5,D 2,LF 3\n")
    assert rows(table)[3]["rounds"][1] == {
        "round": 2, "kind": "forfeit_lost", "table": 2, "seat": 1, "placement": 2,
        "points": "0", "opponents": [1]}
