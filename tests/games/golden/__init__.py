"""Golden records: finished matches of every (game, rules version), committed as export files.

Each registered rulebook has ``<game>/v<version>.ndjson`` here: a few random finished matches
(tests.replay.random_matches), one export document a line (docs/export-format.md), verified on
every test run by the offline verifier. Records are written once and never rewritten: a rules
change that alters one is a new rules version (docs/conformance.md).
"""

from __future__ import annotations

from pathlib import Path

from domain.core.decider import Rulebook
from projections.export import MatchExport, decode_export, encode_export
from tests.replay.random_matches import exported, play

FOLDER = Path(__file__).resolve().parent
INDEXES = (0, 1, 2)  # three matches per rulebook, of its fewest seats and the two counts above


def record_path(book: Rulebook, folder: Path = FOLDER) -> Path:
    """Where a rulebook's records are kept."""
    return folder / book.id / f"v{book.rules_version}.ndjson"


def record_bytes(book: Rulebook) -> bytes:
    """A rulebook's records as NDJSON: one export document a line."""
    return b"".join(encode_export(exported(play(i, game=book))) + b"\n" for i in INDEXES)


def write_missing(books: list[Rulebook], folder: Path = FOLDER) -> list[Path]:
    """Write the records of every rulebook that has none; never touch an existing file."""
    written = []
    for book in books:
        path = record_path(book, folder)
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(record_bytes(book))
        written.append(path)
    return written


def records(path: Path) -> list[MatchExport]:
    """The export documents of one record file."""
    return [decode_export(line) for line in path.read_bytes().splitlines() if line.strip()]


def record_files(folder: Path = FOLDER) -> list[Path]:
    """Every committed record file."""
    return sorted(folder.glob("*/v*.ndjson"))
