"""`hearthlog verify`: every match of an export checked offline, in worker processes, each
reported in the file's order (a tournament's bundle goes to service.cli.tournament); with
``--ratings``, a game's ratings export recomputed from the verified matches of every FILE
(docs/ratings.md)."""

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
    if getattr(args, "ratings", None):
        return verify_ratings(args)
    if len(args.file) > 1:
        print("hearthlog verify: more than one FILE is read only with --ratings", file=sys.stderr)
        return 2
    path = Path(args.file[0])
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


def verify_ratings(args: argparse.Namespace) -> int:
    """Verify every match of the FILEs, then recompute the ratings export from the rated ones
    of its game; exit 0 only when every match verifies and every update agrees."""
    from projections.ratings_check import check
    from service.workers import ordered_map, usable_cores

    paths = [Path(args.ratings), *(Path(name) for name in args.file)]
    missing = next((path for path in paths if not path.is_file()), None)
    if missing is not None:
        print(f"no such file: {missing}", file=sys.stderr)
        return 2
    try:
        found, updates = read_ratings(paths[0])
    except ValueError as problem:
        print(f"{paths[0]}: not a ratings export: {problem}", file=sys.stderr)
        return 2
    matches, total, failed = {}, 0, 0
    for path in paths[1:]:
        for where, report, error, rated in ordered_map(
                check_rated, read_exports(path), args.jobs or usable_cores()):
            total += 1
            if report is None or not report.ok:
                failed += 1
                print_report(f"{path} {where}", report, error)
            elif rated is not None and rated.game == found.game:
                matches[rated.match_id] = rated
    print(f"{total - failed} of {total} matches verified, {len(matches)} rated of {found.game}")
    if failed or not total:
        print("ratings not checked: they are recomputed from verified matches alone")
        return 1
    try:
        checked = check(found, updates, matches)
    except ValueError as problem:
        print(f"{paths[0]}: not a ratings export: {problem}", file=sys.stderr)
        return 2
    return print_ratings(paths[0], checked)


def read_ratings(path: Path) -> tuple[Any, Iterator[tuple[int, Any]]]:
    """The header of a ratings export and its updates as (line, update), read as needed."""
    import msgspec

    from projections.ratings import Header, RatingUpdate

    lines = path.open("rb")
    try:
        found = msgspec.json.decode(lines.readline(), type=Header)
    except msgspec.DecodeError as error:
        lines.close()
        raise ValueError(f"line 1: {error}") from None

    def updates() -> Iterator[tuple[int, Any]]:
        with lines:
            for number, line in enumerate(lines, start=2):
                if not line.strip():
                    continue
                try:
                    yield number, msgspec.json.decode(line, type=RatingUpdate)
                except msgspec.DecodeError as error:
                    raise ValueError(f"line {number}: {error}") from None

    return found, updates()


def check_rated(item: tuple[str, bytes]) -> tuple[str, Any, str | None, Any]:
    """``check_text``, and the rated match a verified export describes (None if unrated): the
    document decoded once for both."""
    import msgspec

    from projections.export import decode_export
    from projections.ratings import rated_match
    from projections.verify import verify as verify_match

    where, text = item
    try:
        document = decode_export(text)
    except ValueError as error:
        return where, None, f"not a Hearthlog export: {error}", None
    report = verify_match(document)
    result = document.header.result
    if not report.ok or result is None:
        return where, report, None, None
    opening = [msgspec.json.decode(event.data) for event in document.events
               if event.version == 1 or event.type == "seat_joined"]
    return where, report, None, rated_match(document.header.match_id, opening, result.placements)


def print_ratings(path: Path, checked: Any) -> int:
    """The ratings' verdict: one line when they agree, the first difference when not."""
    problem = checked.difference
    if checked.note:
        print(f"note  {checked.note}")
    if problem is None:
        print(f"ok    {path}: {checked.updates} updates of {checked.matches} rated matches of "
              f"{checked.game} recomputed and equal")
        return 0
    at = f"line {problem.line}" if problem.line is not None else "matches"
    print(f"FAIL  {path} {at}: {problem.message}")
    for label, value in (("expected", problem.expected), ("found", problem.found)):
        if value is not None:
            print(f"      {label + ':':9} {value}")
    return 1
