"""`hearthlog export --tournament T --bundle` and `hearthlog verify` of a bundle.

The bundle is written from a server (GET /tournaments/{id}/export) or straight from the database
through the code the server uses; `verify` knows a bundle by its first line (``"kind":
"tournament"``) and checks it offline with projections.tournament.verify_bundle.
"""

from __future__ import annotations

import argparse
import asyncio
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import msgspec


class BundleFailed(Exception):
    """The bundle could not be written: refused, unreachable, not finished."""


def export_bundle(args: argparse.Namespace, database_url: Any) -> int:
    """Write one tournament's bundle to --out; exit 1 when refused."""
    if not args.tournament:
        print("export --bundle needs --tournament T", flush=True)
        return 2
    try:
        with Path(args.out).open("wb") as out:
            if args.url:
                lines = from_server(args.url, args.tournament, out)
            else:
                lines = asyncio.run(from_database(database_url(args), args.tournament, out))
    except BundleFailed as failure:
        print(f"export failed: {failure}")
        return 1
    print(f"wrote the bundle of tournament {args.tournament} ({lines} lines) to {args.out}")
    return 0


def from_server(url: str, tournament: str, out: BinaryIO) -> int:
    """Stream GET /tournaments/{id}/export into ``out``; the count of lines."""
    address = f"{url.rstrip('/')}/tournaments/{urllib.parse.quote(tournament, safe='')}/export"
    try:
        with urllib.request.urlopen(address) as answer:
            return _copied(answer, out)
    except urllib.error.HTTPError as error:
        raise BundleFailed(f"{error.code}: {error.read().decode(errors='replace')}") from None
    except urllib.error.URLError as error:
        raise BundleFailed(f"cannot reach {url}: {error.reason}") from None


def _copied(lines: Any, out: BinaryIO) -> int:
    """Copy lines to ``out`` as they come; how many (BundleFailed on the line a stream cut short
    ends with: docs/export-format.md)."""
    from service.cli.main import ExportFailed, cut_short

    count = 0
    for line in lines:
        try:
            cut_short(line)
        except ExportFailed as failure:
            raise BundleFailed(str(failure)) from None
        out.write(line)
        count += 1
    return count


async def from_database(url: str, tournament: str, out: BinaryIO) -> int:
    """Stream the bundle straight from Postgres; the count of lines."""
    from service.errors import ServiceError
    from service.matches import MatchService
    from service.store import PostgresStore
    from service.store.provisioning import create_pool
    from service.store.tournaments import TournamentStore
    from service.tournament.bundle import bundle_lines
    from service.tournament.tournaments import TournamentService

    pool = await create_pool(url, min_size=1, max_size=2)
    try:
        service = TournamentService(TournamentStore(pool), MatchService(PostgresStore(pool)))
        try:
            chunks = await bundle_lines(service, tournament)
        except ServiceError as error:
            raise BundleFailed(f"{error.status}: {error.message}") from None
        count = 0
        async for chunk in chunks:
            out.write(chunk)
            count += chunk.count(b"\n")
        return count
    finally:
        await pool.close()


def is_bundle(path: Path) -> bool:
    """Whether a file's first line is a tournament bundle's header."""
    with path.open("rb") as lines:
        first = lines.readline()
    try:
        head = msgspec.json.decode(first)
    except msgspec.DecodeError:
        return False
    return isinstance(head, dict) and head.get("kind") == "tournament"


def verify_bundle_file(path: Path) -> int:
    """Verify a bundle offline, print its report; exit 0 only when every check passed."""
    from projections.tournament import verify_bundle

    with path.open("rb") as lines:
        report = verify_bundle(_lines(lines))
    print_bundle_report(report)
    return 0 if report.ok else 1


def _lines(source: BinaryIO) -> Iterator[bytes]:
    """The file's lines, one at a time (a bundle is never read whole)."""
    yield from source


def print_bundle_report(report: Any) -> None:
    """The verdict: what was checked, or the first difference with its round and table."""
    name = f"tournament {report.tournament_id}: {report.rounds} rounds, {report.matches} matches"
    if report.ok:
        print(f"ok    {name}")
        for check in report.checked:
            print(f"      checked: {check}")
        return
    problem = report.problem
    print(f"FAIL  tournament {report.tournament_id} (stopped after {report.rounds} rounds and "
          f"{report.matches} matches)\n      {problem.check}: {problem.message}")
    for label, value in (("expected", problem.expected), ("found", problem.found)):
        if value is not None:
            print(f"      {label + ':':9} {value}")
