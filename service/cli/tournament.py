"""`hearthlog export --tournament T --bundle`, `hearthlog verify` of a bundle, and the
organizer's `hearthlog tournament ACTION` commands.

The bundle is written from a server (GET /tournaments/{id}/export) or straight from the database
through the code the server uses; `verify` knows a bundle by its first line (``"kind":
"tournament"``) and checks it offline with projections.tournament.verify_bundle. `hearthlog
tournament` runs an event over a server's routes (create, register, status, standings, close,
round, finish, export, verify), with progress on the long steps (docs/tournaments.md).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
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
    """Write one tournament's bundle to --out (in place only once whole); exit 1 when
    refused or unwritable, with one line on stderr and no file."""
    from service.cli.main import ExportFailed, written

    if not args.tournament:
        print("export --bundle needs --tournament T", file=sys.stderr)
        return 2
    try:
        with written(Path(args.out)) as out:
            if args.url:
                lines = from_server(args.url, args.tournament, out)
            else:
                lines = asyncio.run(from_database(database_url(args), args.tournament, out))
    except (BundleFailed, ExportFailed) as failure:
        print(f"export failed: {failure}", file=sys.stderr)
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


# `hearthlog tournament ...`: an organizer's commands over a server's REST routes.

TOKEN_VARIABLE = "HEARTHLOG_ORGANIZER_TOKEN"
EXPORTS = {"bundle": "/export", "standings": "/standings?format=csv",
           "crosstable": "/crosstable?format=csv", "trf": "/trf"}


def add_tournament(commands: Any, command: Any) -> None:
    """The `tournament` subcommand and its own: create, register, status, standings, close,
    round, finish, export, verify."""
    top = command(commands, "tournament", None, "run a tournament on a server (organizer)",
                  "An organizer's commands over a server's routes (docs/tournaments.md). The "
                  f"organizer token comes from --token or ${TOKEN_VARIABLE}.")
    subs = top.add_subparsers(dest="action", required=True, metavar="ACTION",
                              help="what to do (each has its own --help)")
    make = _action(subs, "create", _create, "open a tournament; prints its id and token")
    make.add_argument("--name", required=True)
    make.add_argument("--game", required=True)
    make.add_argument("--table-size", type=int, default=2)
    make.add_argument("--format", choices=("swiss", "round-robin", "single-elimination"),
                      default="swiss")
    make.add_argument("--rounds", type=int)
    make.add_argument("--pairing", choices=("dutch", "house"))
    make.add_argument("--tiebreaks", help="comma-separated, in order (docs/tournaments.md)")
    make.add_argument("--turn-seconds", type=int)
    make.add_argument("--max-entrants", type=int)
    make.add_argument("--forfeits-to-withdraw", type=int)
    make.add_argument("--approval", action="store_true")
    make.add_argument("--auto-advance", action="store_true")
    join = _action(subs, "register", _register, "register a person, or --bot entrants")
    join.add_argument("name", help="the name (with --count: a prefix numbered 1, 2, ...)")
    join.add_argument("--bot", help="a server-side bot, e.g. random")
    join.add_argument("--count", type=int, default=1, help="how many (bots)")
    _action(subs, "status", _status, "status, round and tables now")
    look = _action(subs, "standings", _standings, "the standings")
    look.add_argument("--csv", action="store_true")
    _action(subs, "close", _close, "close registration (organizer)", token=True)
    start = _action(subs, "round", _round, "start the next round (organizer)", token=True)
    start.add_argument("--wait", action="store_true", help="wait until its tables finish")
    end = _action(subs, "finish", _finish, "end after the last whole round (organizer)",
                  token=True)
    end.add_argument("--reason", default="")
    out = _action(subs, "export", _export, "write the bundle, standings, crosstable or TRF")
    out.add_argument("--what", choices=tuple(EXPORTS), default="bundle")
    out.add_argument("--out", required=True, metavar="FILE")
    check = subs.add_parser("verify", help="verify a bundle offline, with progress")
    check.add_argument("file", metavar="FILE")
    check.set_defaults(handler=lambda args: verify_with_progress(Path(args.file)))


def _action(subs: Any, name: str, handler: Any, help_text: str, token: bool = False) -> Any:
    """One action: the server and the tournament (but for create), and the token."""
    sub = subs.add_parser(name, help=help_text, description=help_text)
    sub.add_argument("url", metavar="URL", help="the server, e.g. http://127.0.0.1:8000")
    if name != "create":
        sub.add_argument("tournament", metavar="ID")
    if token:
        sub.add_argument("--token", help=f"the organizer token (default: ${TOKEN_VARIABLE})")
    sub.set_defaults(handler=lambda args: _run(handler, args))
    return sub


def _run(handler: Any, args: argparse.Namespace) -> int:
    """Run an action with a client; a refusal, an unreachable server or an --out that cannot
    be written prints one line on stderr and exits 1."""
    import httpx

    from service.cli.main import ExportFailed

    with httpx.Client(base_url=args.url.rstrip("/"), timeout=120) as client:
        try:
            handler(client, args)
        except Refused as refused:
            print(f"refused: {refused}", file=sys.stderr)
            return 1
        except ExportFailed as failure:
            print(f"export failed: {failure}", file=sys.stderr)
            return 1
        except httpx.HTTPError as error:
            print(f"cannot reach {args.url}: {error}", file=sys.stderr)
            return 1
    return 0


class Refused(Exception):
    """The server answered with an error."""


def _ok(answer: Any) -> Any:
    """The answer's JSON, or Refused with its status and detail."""
    if answer.status_code >= 400:
        try:
            detail = answer.json().get("detail", answer.text)
        except ValueError:
            detail = answer.text
        raise Refused(f"{answer.status_code}: {detail}")
    return answer.json() if "json" in answer.headers.get("content-type", "") else answer.text


def _path(args: argparse.Namespace, tail: str = "") -> str:
    """The tournament's route."""
    return f"/tournaments/{urllib.parse.quote(args.tournament, safe='')}{tail}"


def _headers(args: argparse.Namespace) -> dict[str, str]:
    """The organizer token's header."""
    import os

    token = getattr(args, "token", None) or os.environ.get(TOKEN_VARIABLE)
    if not token:
        raise Refused(f"this needs the organizer token: --token or ${TOKEN_VARIABLE}")
    return {"authorization": f"Bearer {token}"}


def _create(client: Any, args: argparse.Namespace) -> None:
    """Open a tournament."""
    body = {"name": args.name, "game": args.game, "table_size": args.table_size,
            "format": args.format, "approval": args.approval, "auto_advance": args.auto_advance}
    for field in ("rounds", "pairing", "turn_seconds", "max_entrants", "forfeits_to_withdraw"):
        if getattr(args, field) is not None:
            body[field] = getattr(args, field)
    if args.tiebreaks:
        body["tiebreaks"] = [name.strip() for name in args.tiebreaks.split(",")]
    made = _ok(client.post("/tournaments", json=body))
    print(f"tournament {made['tournament_id']}\norganizer token (shown once): "
          f"{made['organizer_token']}\nseed commitment: {made['seed_commitment']}")


def _register(client: Any, args: argparse.Namespace) -> None:
    """Register one person, or --count bots, showing progress."""
    for n in range(1, args.count + 1):
        name = args.name if args.count == 1 else f"{args.name} {n}"
        body = {"name": name, **({"bot": args.bot} if args.bot else {})}
        done = _ok(client.post(_path(args, "/players"), json=body))
        entrant = done["entrant"]
        if args.count == 1:
            print(f"entrant {entrant['number']}: {entrant['name']}")
            if done.get("player_token"):
                print(f"player token (shown once): {done['player_token']}")
        elif n % 10 == 0 or n == args.count:
            print(f"registered {n}/{args.count}", flush=True)


def _status(client: Any, args: argparse.Namespace) -> None:
    """The tournament's status and its current round's tables."""
    found = _ok(client.get(_path(args)))
    print(f"{found['name']}: {found['status']}, round {found['round']} of "
          f"{found['rounds_total']}, {len(found['entrants'])} entrants")
    if found["rounds"]:
        tables = found["rounds"][-1]["tables"]
        states = {s: sum(t["status"] == s for t in tables) for s in ("playing", "finished")}
        print(f"round {found['round']}: {len(tables)} tables, {states['finished']} finished, "
              f"{states['playing']} in play")


def _standings(client: Any, args: argparse.Namespace) -> None:
    """The standings, as a table or CSV."""
    if args.csv:
        print(_ok(client.get(_path(args, "/standings?format=csv"))), end="")
        return
    found = _ok(client.get(_path(args, "/standings")))
    print(f"after round {found['after_round']}")
    for row in found["standings"]:
        breaks = " ".join(f"{k}={v}" for k, v in row["tiebreaks"].items())
        print(f"{row['rank']:>4} {row['name']:<32} {row['points']:>5}  {breaks}")


def _close(client: Any, args: argparse.Namespace) -> None:
    """Close registration."""
    found = _ok(client.post(_path(args, "/close"), headers=_headers(args)))
    print(f"registration closed: {len(found['entrants'])} entrants, {found['rounds_total']} "
          "rounds")


def _round(client: Any, args: argparse.Namespace) -> None:
    """Start the next round; with --wait, follow it to its end."""
    import time

    found = _ok(client.post(_path(args, "/rounds"), headers=_headers(args)))
    number, total = found["round"], len(found["tables"])
    print(f"round {number} started: {total} tables, byes {found['byes']}", flush=True)
    while args.wait:
        tables = _ok(client.get(_path(args, f"/rounds/{number}")))["tables"]
        done = sum(t["status"] == "finished" for t in tables)
        print(f"round {number}: {done}/{total} tables finished", flush=True)
        if done == total:
            return
        time.sleep(2)


def _finish(client: Any, args: argparse.Namespace) -> None:
    """End after the last whole round."""
    body = {"reason": args.reason} if args.reason else {}
    found = _ok(client.post(_path(args, "/finish"), json=body, headers=_headers(args)))
    print(f"tournament {found['status']} after round {found['round']}")


def _export(client: Any, args: argparse.Namespace) -> None:
    """Stream one export to --out, showing progress by lines; written beside it and moved
    into place once whole, so a refusal, a cut stream or an unwritable --out leaves no file."""
    from service.cli.main import written

    count = 0
    with client.stream("GET", _path(args, EXPORTS[args.what])) as answer:
        if answer.status_code >= 400:
            answer.read()
            _ok(answer)
        with written(Path(args.out)) as out:
            for line in answer.iter_lines():
                out.write(line.encode() + b"\n")
                count += 1
                if count % 100 == 0:
                    print(f"{count} lines", flush=True)
    print(f"wrote {args.what} of tournament {args.tournament} ({count} lines) to {args.out}")


def verify_with_progress(path: Path) -> int:
    """Verify a bundle, printing each round as its line is reached; exit 0 when ok."""
    from projections.tournament import verify_bundle

    def reading(source: BinaryIO) -> Iterator[bytes]:
        """The lines, announcing each round line."""
        for line in source:
            if line.startswith(b'{"kind":"round"'):
                number = msgspec.json.decode(line).get("round")
                print(f"checking round {number}", flush=True)
            yield line

    with path.open("rb") as lines:
        report = verify_bundle(reading(lines))
    print_bundle_report(report)
    return 0 if report.ok else 1
