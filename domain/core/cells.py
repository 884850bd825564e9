"""CSV cells a spreadsheet cannot run: every CSV we write passes its text through here.

OWASP's advice against CSV injection: a text cell that begins with `=`, `+`, `-`, `@`, a tab or a
carriage return may be read by a spreadsheet as a formula, so it is written with a leading `'`,
which spreadsheets show as text and drop. A number (an int, or text that is exactly a decimal
number such as `-1.5`) is left alone: it cannot carry a formula, and a reader must be able to sum
it. Only text is changed, and only when it begins with one of those characters.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def safe_cell(value: Any) -> Any:
    """The value as a spreadsheet may read it without running it."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(rows: Iterable[Iterable[Any]], lineterminator: str = "\r\n") -> str:
    """Rows as CSV text, every cell through safe_cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=lineterminator)
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return out.getvalue()
