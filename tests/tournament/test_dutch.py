"""2-seat Swiss by FIDE's Dutch system: our pairings equal py4swiss's own, read from the TRF
file we write, round after round of recorded events; and the TRF read back whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser

from domain.tournament import Entrant, RoundRecord, pair_round, rounds_total, standings
from domain.tournament.trf import starting_numbers, trf_text
from tests.tournament.scripted import people, random_outcome, record, seed_of, settings


def recorded(count: int, index: int, withdrawn: dict[int, int] | None = None,
             ) -> tuple[list[Entrant], list[RoundRecord]]:
    """A 2-seat Dutch Swiss of ``count`` entrants played to its end with random results."""
    rules, entrants = settings("swiss", pairing="dutch"), people(count, withdrawn)
    history: list[RoundRecord] = []
    for _ in range(rounds_total(rules, entrants)):
        history.append(record(pair_round(rules, seed_of(index), entrants, history),
                              random_outcome(index)))
    return entrants, history


@pytest.mark.parametrize(("count", "index", "withdrawn"),
                         [(12, 0, None), (17, 1, {4: 2}), (20, 2, {0: 1, 9: 3}), (33, 3, None)])
def test_every_round_equals_py4swiss_on_the_trf_file_of_the_rounds_before(
        tmp_path: Path, count, index, withdrawn):
    """Given a recorded event (odd counts, withdrawals), when each round's TRF (the rounds
    before it, the absent in XXZ) is written to a file and paired by py4swiss's own parser
    and engine, then its pairs, colours and bye are exactly the round we paired."""
    rules = settings("swiss", pairing="dutch")
    entrants, history = recorded(count, index, withdrawn)
    start = starting_numbers(seed_of(index), entrants)
    total = rounds_total(rules, entrants)
    for r, played in enumerate(history):
        absent = {e.number for e in entrants
                  if e.withdrew_after is not None and e.withdrew_after < r + 1}
        path = tmp_path / f"round-{r + 1}.trf"
        path.write_text(trf_text(rules, seed_of(index), entrants, history[:r], total,
                                 absent=absent), encoding="utf-8")
        theirs = DutchEngine.generate_pairings(TrfParser.parse(path, strict=True))
        ours = [(start[t.seats[0]], start[t.seats[1]]) for t in played.pairing.tables]
        ours += [(start[n], 0) for n in played.pairing.byes]
        assert [(p.white, p.black) for p in theirs] == ours, f"round {r + 1}"


def test_the_trf_of_a_finished_event_reads_back_whole(tmp_path: Path):
    """Given a finished 17-entrant Dutch Swiss with a withdrawal, when its TRF is read by
    py4swiss's parser, then it has every player with its name, points, rank and one result a
    round, the bye as a pairing-allocated bye."""
    rules = settings("swiss", pairing="dutch")
    entrants, history = recorded(17, 1, {4: 2})
    path = tmp_path / "event.trf"
    total = rounds_total(rules, entrants)
    path.write_text(trf_text(rules, seed_of(1), entrants, history, total, name="Winter Cup"),
                    encoding="utf-8")

    trf = TrfParser.parse(path, strict=True)

    table = {s.entrant: s for s in standings(rules, seed_of(1), entrants, history)}
    start = starting_numbers(seed_of(1), entrants)
    assert trf.tournament_section.tournament_name == "Winter Cup"
    assert trf.x_section.number_of_rounds == total
    assert len(trf.player_sections) == 17
    for section in trf.player_sections:
        number = next(n for n, s in start.items() if s == section.starting_number)
        assert section.name == entrants[number].name
        assert section.points_times_ten == int(table[number].points * 10)
        assert section.rank == table[number].rank
        assert len(section.results) == total
    byes = [r for s in trf.player_sections for r in s.results if r.result.value == "U"]
    assert len(byes) == sum(len(h.pairing.byes) for h in history)


def test_the_documented_dutch_round_one_of_five():
    """Given 5 entrants under the winter cup seed (lot [4, 1, 2, 3, 0]), then the Dutch round 1
    is the one docs/tournaments.md states: the bye to 0, then [4, 2] and [3, 1]."""
    from tests.tournament.scripted import WINTER_CUP

    first = pair_round(settings("swiss", pairing="dutch"), WINTER_CUP, people(5), [])

    assert first.byes == [0] and [t.seats for t in first.tables] == [[4, 2], [3, 1]]
