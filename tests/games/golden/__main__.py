"""python -m tests.games.golden --write-missing: records for every rulebook that has none.

Sees the rulebooks a test session carries (the games the server plays and the test games
tests/conftest.py registers); an existing record is never rewritten.
"""

from __future__ import annotations

import argparse

import tests.conftest  # noqa: F401  (registers the test session's games, test games included)
from domain.registry import rulebooks
from tests.games.golden import FOLDER, write_missing


def main() -> int:
    """Write the missing records and name each file written."""
    parser = argparse.ArgumentParser(prog="python -m tests.games.golden", description=__doc__)
    parser.add_argument("--write-missing", action="store_true", required=True,
                        help="write records for every registered rulebook that has none")
    parser.parse_args()
    written = write_missing(rulebooks())
    for path in written:
        print(f"wrote {path.relative_to(FOLDER.parent.parent.parent)}")
    if not written:
        print("every registered rulebook has its records; nothing written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
