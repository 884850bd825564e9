"""#34 defect 9: a name that begins like a spreadsheet formula is written as text in every CSV."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

from domain.core.cells import csv_text, safe_cell
from domain.tournament import standings_csv
from domain.tournament.standings import Standing


@pytest.mark.parametrize("text", ["=HYPERLINK(\"http://x\",\"y\")", "+1+2", "-2+3", "@SUM(A1)",
                                  "\tcmd", "\rcmd"])
def test_formula_like_text_is_written_as_text(text: str) -> None:
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Ash", "-1", "+2", "-1.5", 3, -4, "", "a=b"])
def test_numbers_and_plain_text_are_left_alone(value: object) -> None:
    assert safe_cell(value) == value


def test_csv_text_neutralises_every_row_and_keeps_numbers() -> None:
    text = csv_text([["name", "score"], ["=1+1", -3], ["Ash", "-1"]])
    assert list(csv.reader(io.StringIO(text))) == [["name", "score"], ["'=1+1", "-3"],
                                                    ["Ash", "-1"]]


def test_standings_csv_neutralises_a_formula_name() -> None:
    row = Standing(rank=1, entrant=1, name="=HYPERLINK(\"http://evil\")", points=Fraction(1),
                   tiebreaks={}, played=1, byes=0, withdrawn=False)
    cells = list(csv.reader(io.StringIO(standings_csv([row]))))[1]
    assert cells[2] == "'=HYPERLINK(\"http://evil\")"
