"""`hearthlog verify`: every match of an export checked offline, in worker processes, each
reported in the file's order (a tournament's bundle goes to service.cli.tournament)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from service.cli.progress import Progress


def verify(args: argparse.Namespace) -> int:
    """Verify every match of an export file offline; exit 0 only when all pass."""
    from service.cli.extra_games import ExtraGamesError, load_extra_games
    from service.workers import ordered_map, usable_cores

    try:
        load_extra_games()  # the workers are forked from here, so they carry the same games
    except ExtraGamesError as problem:
        print(f"hearthlog verify: {problem}", file=sys.stderr)
        return 2
    path = Path(args.file)
    if not path.is_file():
        print(f"no such file: {path}", file=sys.stderr)
        return 2
    from service.cli.tournament import is_bundle, verify_bundle_file

    if holds_nothing(path):
        print(f"{path} holds no match to verify", file=sys.stderr)
        return 1
    if is_bundle(path):
        return verify_bundle_file(path)
    results = []
    progress = Progress("verify", "matches")
    if progress.enabled:  # one quick pass to know the total, only when a bar is drawn
        progress.total = matches_in(path)
    try:
        checked = ordered_map(check_text, read_exports(path), args.jobs or usable_cores())
        for where, report, error in checked:
            progress.clear()
            print_report(where, report, error)
            results.append(report is not None and report.ok)
            progress.advance()
    finally:
        progress.close()
    passed, failed = results.count(True), results.count(False)
    print(f"{passed} of {len(results)} matches verified" + (f", {failed} failed" if failed else ""))
    return 0 if results and not failed else 1


def read_exports(path: Path) -> Iterator[tuple[str, bytes]]:
    """(where, text) for each match: one per line, or the whole file as one document."""
    with path.open("rb") as lines:
        if not one_per_line(lines.readline()):
            yield str(path), path.read_bytes()
            return
        lines.seek(0)
        for number, line in enumerate(lines, start=1):
            if line.strip():
                yield f"line {number}", line


def holds_nothing(path: Path) -> bool:
    """Whether the file is empty or blank (read up to its first line that is not)."""
    with path.open("rb") as lines:
        return not any(line.strip() for line in lines)


def matches_in(path: Path) -> int:
    """How many matches ``read_exports`` will find in the file."""
    with path.open("rb") as lines:
        first = lines.readline()
        return 1 + sum(1 for line in lines if line.strip()) if one_per_line(first) else 1


def one_per_line(first: bytes) -> bool:
    """Whether a file whose first line this is holds one document per line (else it is one
    indented document)."""
    import msgspec

    try:
        msgspec.json.decode(first)
    except msgspec.DecodeError:
        return False
    return True


def check_text(item: tuple[str, bytes]) -> tuple[str, Any, str | None]:
    """(where, the report, None), or (where, None, why) when the text is not an export.

    Run in worker processes by ``verify``: pure, and it takes and returns plain data.
    """
    from projections.export import decode_export
    from projections.verify import verify as verify_match

    where, text = item
    try:
        document = decode_export(text)
    except ValueError as error:
        return where, None, f"not a Hearthlog export: {error}"
    return where, verify_match(document), None


def print_report(where: str, report: Any, error: str | None) -> None:
    """A short report of one match: one line when it passes, the first problem when it fails."""
    if report is None:
        print(f"FAIL  {where}: {error}")
        return
    name = f"{report.match_id}  {report.game} rules {report.rules_version}  {report.events} events"
    if report.ok:
        print(f"ok    {name}  head {report.head_hash}")
        return
    problem = report.problem
    at = f"event {problem.version}" if problem.version is not None else "header"
    print(f"FAIL  {name}\n      {at} ({problem.check}): {problem.message}")
    for label, value in (("expected", problem.expected), ("found", problem.found)):
        if value is not None:
            print(f"      {label + ':':9} {value}")
