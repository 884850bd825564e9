"""docs/tournaments.md's worked examples and the bundle schema agree with the code."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

from domain.tournament import (
    Pairing,
    RoundRecord,
    Table,
    TableResult,
    decimal,
    lot,
    match_points,
    pair_round,
    standings,
    standings_csv,
)
from projections.tournament import schema_text
from tests.tournament.scripted import WINTER_CUP, people, placed, record, settings

DOCS = Path(__file__).resolve().parents[2] / "docs"


def example(name: str) -> str:
    """The fenced block after ``<!-- example: name -->`` in docs/tournaments.md."""
    text = (DOCS / "tournaments.md").read_text()
    found = re.search(rf"<!-- example: {name} -->\n```\w+\n(.*?)```", text, re.DOTALL)
    assert found, f"no example {name} in docs/tournaments.md"
    return found.group(1)


def two_seat(round_number: int, tables: list[tuple[list[int], int | None]]) -> RoundRecord:
    """A hand-written 2-seat round: each table's seats and its winner (None: a draw)."""
    pairing = Pairing(round=round_number, byes=[], tables=[
        Table(number=i + 1, seats=seats) for i, (seats, _) in enumerate(tables)
    ])
    results = [TableResult(round=round_number, table=t.number, placements=placed(t, winner))
               for t, (_, winner) in zip(pairing.tables, tables, strict=True)]
    return RoundRecord(pairing=pairing, results=results)


def test_the_committed_bundle_schema_is_the_one_generated_from_the_structs():
    """Given the bundle Structs, then docs/tournament-bundle.schema.json equals their schema."""
    assert (DOCS / "tournament-bundle.schema.json").read_text() == schema_text()


def test_the_points_example_is_what_match_points_gives():
    """Given the 4-seat table of the points example, then each seat's points are as shown."""
    shown = json.loads(example("points"))

    points = [decimal(match_points(shown["placements"], s)) for s in range(4)]

    assert points == shown["points"] == ["1.5", "3", "1.5", "0"]


def test_the_swiss_example_standings_are_the_documented_ones():
    """Given the hand-worked Swiss rounds, when the standings are computed, then the CSV is the
    documented one (Cato above Bryn on Sonneborn-Berger)."""
    history = [
        two_seat(1, [([0, 1], 0), ([2, 3], None)]),
        two_seat(2, [([0, 2], None), ([1, 3], 1)]),
    ]

    table = standings(settings("swiss"), WINTER_CUP, people(4), history)

    assert standings_csv(table) == example("swiss-4")


def test_the_round_robin_cycle_is_paired_and_ranked_as_documented():
    """Given 3 entrants in a round robin where each beats the next, when it is run, then the
    rounds are the documented ones and only the lot separates the three."""
    rules, entrants = settings("round-robin"), people(3)
    beats = {0: 1, 1: 2, 2: 0}
    history: list[RoundRecord] = []
    for _ in range(3):
        pairing = pair_round(rules, WINTER_CUP, entrants, history)
        history.append(record(pairing, lambda p, t: placed(t, next(
            n for n in t.seats if beats[n] in t.seats))))

    assert [[t.seats for t in r.pairing.tables] for r in history] == [[[0, 1]], [[2, 0]], [[1, 2]]]
    assert [r.pairing.byes for r in history] == [[2], [1], [0]]
    assert lot(WINTER_CUP, entrants) == {0: 0, 1: 1, 2: 2}
    assert standings_csv(standings(rules, WINTER_CUP, entrants, history)) == example(
        "round-robin-3")


def test_the_elimination_example_sends_the_better_lot_through_a_draw():
    """Given 6 entrants seeded by registration, when Dell and Esme draw and Cato beats Fenn,
    then Esme goes on by the lot and round 2 is Ash v Esme, Bryn v Cato."""
    shown = json.loads(example("elimination-6"))
    rules, entrants = settings("single-elimination"), people(6)

    first = pair_round(rules, WINTER_CUP, entrants, [])
    played = record(first, lambda p, t: placed(t, None if 3 in t.seats else 2))
    second = pair_round(rules, WINTER_CUP, entrants, [played])

    assert [t.seats for t in first.tables] == shown["round_1"]
    assert first.byes == shown["byes_1"]
    assert [t.seats for t in second.tables] == shown["round_2"]


def test_the_by_hand_snippet_rederives_round_one_with_the_standard_library_alone():
    """Given the documented snippet (hashlib and hmac only), when it runs, then its lot, bye and
    tables are pair_round's round 1 of a 5-entrant Swiss under the same seed."""
    names: dict[str, object] = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(example("by-hand"), names)  # the documentation's own code

    expected = pair_round(settings("swiss"), WINTER_CUP, people(5), [])

    assert names["lot"] == [4, 1, 2, 3, 0]
    assert [names["bye"]] == expected.byes
    assert names["tables"] == [t.seats for t in expected.tables]
