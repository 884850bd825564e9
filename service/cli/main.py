"""The `hearthlog` command: serve, migrate, distribute, play, openapi, export, verify (its
subcommands are listed by `hearthlog --help`, from the parser itself)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from service.cli.progress import Progress

OPENAPI_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def database_url(args: argparse.Namespace) -> str:
    """The Postgres to use: --database-url, else DATABASE_URL, else the embedded one."""
    url = args.database_url or os.environ.get("DATABASE_URL")
    if url:
        return url
    from service.store.provisioning import start_embedded

    print(f"Starting the embedded Postgres in {args.data_dir}/ ...", flush=True)
    return start_embedded(Path(args.data_dir).resolve() / "pgdata")


def serve(args: argparse.Namespace) -> int:
    """Run the service until interrupted, in N worker processes under granian (the faster
    measured) or uvicorn; the embedded Postgres, if any, is started here once for all of them."""
    from service import logs
    from service.cli.extra_games import ExtraGamesError, load_extra_games
    from service.http.serving import POOL_VARIABLE, DoesNotFit, budget, worker_count

    try:
        load_extra_games()  # read once, before anything starts: a bad name stops here
        workers = worker_count(args.workers)
    except (ExtraGamesError, DoesNotFit) as error:
        print(f"hearthlog serve: {error}", file=sys.stderr)
        return 2
    logs.configure()
    # uvicorn re-raises SIGTERM after its graceful shutdown; exiting through Python instead
    # lets the embedded Postgres be stopped at exit rather than left running. (granian, and
    # uvicorn's supervisor of several workers, set their own handlers, stop the workers and
    # return.)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    url = database_url(args)
    if args.read_database_url:  # create_app reads it, in this process or granian's worker
        os.environ["HEARTHLOG_READ_DATABASE_URL"] = args.read_database_url
    if args.listen_database_url:  # the same (docs/scaling.md: behind a connection pooler)
        os.environ["HEARTHLOG_LISTEN_DATABASE_URL"] = args.listen_database_url
    if args.no_statement_cache:  # every pool reads it (service.store.provisioning)
        os.environ["HEARTHLOG_DATABASE_STATEMENT_CACHE"] = "off"
    try:
        shared = budget(url, workers)
    except DoesNotFit as error:
        print(f"hearthlog serve: {error}", file=sys.stderr)
        return 2
    os.environ[POOL_VARIABLE] = str(shared.pool)  # inherited by every worker
    if args.route_by_match:  # N one-worker servers behind HAProxy (docs/scaling.md)
        from service.cli.routing import Unroutable, serve_routed

        print(shared.describe(), flush=True)
        try:
            return serve_routed(url, args.host, args.port, workers, args.server)
        except Unroutable as error:
            print(f"hearthlog serve: {error}", file=sys.stderr)
            return 2
    base = f"http://{args.host}:{args.port}"
    print(f"Hearthlog is serving at {base}\nAPI docs: {base}/docs\nPlay in a browser: {base}/\n"
          f"{shared.describe()}\n", flush=True)
    if args.server == "uvicorn":
        _serve_uvicorn(url, args.host, args.port, workers)
    else:
        _serve_granian(url, args.host, args.port, workers)
    return 0


def _serve_uvicorn(url: str, host: str, port: int, workers: int) -> None:
    """The app under uvicorn: in this process for one worker, else in ``workers`` processes its
    supervisor spawns, each building it with ``served_app`` (beyond its connection limit each
    answers 503)."""
    import uvicorn

    from service.http.app import create_app

    # Open match streams would hold a graceful shutdown forever: give them a few seconds.
    options: dict[str, Any] = {"host": host, "port": port, "log_level": "warning",
                               "timeout_graceful_shutdown": 3, "backlog": BACKLOG,
                               "limit_concurrency": open_connections()}
    if workers == 1:
        uvicorn.run(create_app(url), **options)
        return
    os.environ[SERVED_DATABASE_URL] = url
    uvicorn.run("service.cli.main:served_app", factory=True, workers=workers, **options)


def _serve_granian(url: str, host: str, port: int, workers: int) -> None:
    """The app in ``workers`` granian worker processes, each building it with ``served_app``.

    granian's own settings bound what a client can hold (docs/limits.md): HTTP/1.1 only (no
    HTTP/2 over plain TCP, h2c, whose idle connections granian never cuts), the connections
    served at once, per worker (its backpressure: past it new connections wait in the listen
    backlog) and the time to send the headers, which also ends an idle keep-alive connection.
    A worker that dies is replaced (granian's respawn); one that dies again within 5.5 s of
    being replaced is a crash loop, and the server exits (docs/reliability.md).
    """
    from granian import Granian
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels

    from service.http.limits import Limits

    os.environ[SERVED_DATABASE_URL] = url
    headers_ms = int(Limits.from_env().header_seconds * 1000)
    Granian("service.cli.main:served_app", factory=True, address=host, port=port,
            interface=Interfaces.ASGI, log_level=LogLevels.warning, workers=workers,
            workers_kill_timeout=3, backlog=BACKLOG, backpressure=open_connections(),
            http=HTTPModes.http1, http1_settings=HTTP1Settings(header_read_timeout=headers_ms),
            respawn_failed_workers=True).serve()


BACKLOG = 4096  # connections the kernel queues before the server accepts them


def open_connections() -> int:
    """The connections one process serves at once: HEARTHLOG_CONNECTIONS, within what the
    process may open (its soft file limit is raised to the hard one first)."""
    import resource

    from service.http.limits import Limits

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    files = hard if hard != resource.RLIM_INFINITY else 1 << 20
    return max(16, min(Limits.from_env().connections, files - 256))


SERVED_DATABASE_URL = "HEARTHLOG_SERVED_DATABASE_URL"


def served_app() -> Any:
    """The app a granian worker serves, on the database its serving process chose, with the
    extra games its serving process checked (HEARTHLOG_EXTRA_GAMES, inherited)."""
    from service import logs
    from service.cli.extra_games import load_extra_games

    load_extra_games()
    from service.http.app import create_app

    logs.configure()
    return create_app(os.environ[SERVED_DATABASE_URL])


def migrate(args: argparse.Namespace) -> int:
    """Apply every pending migration, then exit."""
    from service.store.migrations import apply_migrations

    applied = asyncio.run(apply_migrations(database_url(args)))
    print("\n".join(f"applied {name}" for name in applied) or "nothing to apply")
    return 0


def distribute(args: argparse.Namespace) -> int:
    """Migrate a Citus coordinator's database and place its tables (docs/scaling.md)."""
    import asyncpg

    from service.store.migrations import MigrationError
    from service.store.migrations import distribute as place_tables
    from service.store.sharding import NotCitus

    try:
        applied, placed = asyncio.run(place_tables(args.database_url))
    except (NotCitus, MigrationError, asyncpg.PostgresError, OSError) as error:
        print(f"hearthlog distribute: {error}", file=sys.stderr)
        return 1
    for name in applied:
        print(f"applied {name}")
    print("\n".join(placed) or "every table is placed already")
    return 0


def openapi(args: argparse.Namespace) -> int:
    """Write the OpenAPI document generated from the app."""
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(openapi_text() + "\n")
    print(f"wrote {out}")
    return 0


def openapi_text() -> str:
    """The OpenAPI document as stable, indented JSON."""
    import msgspec

    from service.http.app import create_app

    schema = create_app().openapi_schema.to_schema()
    return json.dumps(schema, indent=2, sort_keys=True, default=msgspec.to_builtins)


def export(args: argparse.Namespace) -> int:
    """Write finished matches to --out as NDJSON or CSV, from a server or a database (with
    --bundle: one tournament's verifiable bundle, service.cli.tournament); without a source to
    read, a one-line error and nothing written."""
    if not has_source(args):
        print(f"hearthlog export: nothing to export from: give --url SERVER or --database-url "
              f"URL (DATABASE_URL is not set, and {args.data_dir}/ holds no database "
              f"`hearthlog serve` made)", file=sys.stderr)
        return 2
    if args.bundle:
        from service.cli.tournament import export_bundle

        return export_bundle(args, database_url)
    progress = Progress("export", "matches")
    try:
        with written(Path(args.out)) as out:
            if args.url:
                export_from_server(args, out, progress)
            else:
                asyncio.run(export_from_database(database_url(args), args, out, progress))
    except ExportFailed as failure:
        progress.clear()
        print(f"export failed: {failure}", file=sys.stderr)
        return 1
    progress.close()
    print(f"wrote {progress.done} matches to {args.out}")
    return 0


def has_source(args: argparse.Namespace) -> bool:
    """Whether export has something to read: a server, a database URL, or the embedded
    Postgres that `hearthlog serve` made in --data-dir (never a new, empty one)."""
    embedded = Path(args.data_dir) / "pgdata" / "PG_VERSION"
    return bool(args.url or args.database_url or os.environ.get("DATABASE_URL")
                or embedded.is_file())


@contextlib.contextmanager
def written(path: Path) -> Iterator[BinaryIO]:
    """``path`` opened for writing, in place only once the block succeeds: a failure leaves no
    file behind (and a file of that name as it was). A device or pipe is written directly."""
    if path.exists() and not path.is_file():
        with path.open("wb") as out:
            yield out
        return
    part = path.with_name(f".{path.name}.part")
    try:
        out = part.open("wb")
    except OSError as error:
        raise ExportFailed(f"cannot write {path}: {error.strerror}") from None
    try:
        with out:
            yield out
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)


class ExportFailed(Exception):
    """The server refused the export or could not be reached."""


def export_filters(args: argparse.Namespace) -> dict[str, str]:
    """The filters given on the command line, as query parameters."""
    names = ("tournament", "game", "finished_after", "finished_before")
    return {name: getattr(args, name) for name in names if getattr(args, name) is not None}


def export_from_server(args: argparse.Namespace, out: Any, progress: Progress) -> None:
    """Stream GET /exports/matches into ``out``, a line at a time, counting matches: a line
    each in NDJSON, a new match_id (the first cell) in a table; a Parquet file, which comes
    whole at the end, by the count the server announced."""
    import urllib.error
    import urllib.parse
    import urllib.request

    query = urllib.parse.urlencode({**export_filters(args), "format": args.format})
    try:
        with urllib.request.urlopen(f"{args.url.rstrip('/')}/exports/matches?{query}") as answer:
            progress.total = int(answer.headers.get("X-Match-Count") or 0) or None
            if args.format == "parquet":
                out.write(answer.read())
                progress.advance(progress.total or 0)
                return
            last = None
            for line in answer:
                cut_short(line)
                out.write(line)
                first = line if args.format == "ndjson" else line.split(b",", 1)[0]
                if first not in (last, b"match_id"):
                    progress.advance()
                last = first
    except urllib.error.HTTPError as error:
        raise ExportFailed(f"{error.code}: {error.read().decode(errors='replace')}") from None
    except urllib.error.URLError as error:
        raise ExportFailed(f"cannot reach {args.url}: {error.reason}") from None


def cut_short(line: bytes) -> None:
    """ExportFailed when the line is the one a server ends a stream cut short with
    (docs/export-format.md: ``{"error": "export_interrupted", ...}``, or ``#error,...`` in CSV)."""
    if line.startswith(b"#error,"):
        import csv

        cells = next(csv.reader([line.decode(errors="replace")]))
        raise ExportFailed(f"the server cut the stream short: {cells[-1]}")
    if line.startswith(b'{"error"'):
        import msgspec

        try:
            detail = msgspec.json.decode(line).get("detail", "")
        except msgspec.DecodeError:
            detail = line.decode(errors="replace")
        raise ExportFailed(f"the server cut the stream short: {detail}")


async def export_from_database(
    url: str, args: argparse.Namespace, out: Any, progress: Progress
) -> None:
    """Stream the export straight from Postgres through the same code the server uses."""
    from datetime import datetime

    import asyncpg

    from service.exports import chunked, export_lines, utc
    from service.store import ExportFilter, PostgresStore
    from service.store.provisioning import create_pool

    try:
        times = {k: utc(datetime.fromisoformat(v)) for k, v in export_filters(args).items()
                 if k.startswith("finished")}
    except ValueError as error:
        raise ExportFailed(f"a time must be ISO 8601: {error}") from None
    filters = ExportFilter(tournament=args.tournament, game=args.game, **times)
    try:
        pool = await create_pool(url, min_size=1, max_size=2)
    except (asyncpg.PostgresError, OSError) as error:
        raise ExportFailed(f"cannot reach the database: {error}") from None
    try:
        store = PostgresStore(pool)
        progress.total = await store.count_finished(filters)
        async for chunk in chunked(export_lines(store, filters, args.format, progress.advance)):
            out.write(chunk)
    except asyncpg.PostgresError as error:  # e.g. a database Hearthlog never migrated
        raise ExportFailed(f"the database refused: {error}") from None
    finally:
        await pool.close()


def at_least_one(text: str) -> int:
    """A count of 1 or more, from the command line."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if count < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return count


def verify(args: argparse.Namespace) -> int:
    """Verify every match of an export file offline; exit 0 only when all pass."""
    from service.cli.verifying import verify as verify_file

    return verify_file(args)


def play(args: argparse.Namespace) -> int:
    """Play one seat of a match from this terminal."""
    from service.cli.play import play as play_seat

    return play_seat(args)


class ShowDefaults(argparse.ArgumentDefaultsHelpFormatter):
    """Help naming every option's default: argparse's own where one is set; where it is worked
    out at run time (an environment variable, one per core), the option's help says it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        """The help, with "(default: ...)" unless it says its default already or has none."""
        text = action.help or ""
        if "default" in text or action.default in (None, False, argparse.SUPPRESS):
            return text
        return super()._get_help_string(action) or text


Commands = argparse._SubParsersAction  # the type of ``add_subparsers``'s answer


def command(commands: Commands[argparse.ArgumentParser], name: str, handler: Any,
            help_text: str, description: str | None = None) -> argparse.ArgumentParser:
    """A subcommand whose help shows its options' defaults."""
    sub = commands.add_parser(name, help=help_text, description=description or help_text,
                              formatter_class=ShowDefaults)
    sub.set_defaults(handler=handler)
    return sub


def add_database(sub: argparse.ArgumentParser, required: bool = False) -> None:
    """--database-url, and --data-dir for the embedded Postgres used without one."""
    if required:
        sub.add_argument("--database-url", required=True, metavar="URL",
                         help="the coordinator's database (with CREATE EXTENSION citus done "
                         "and the workers added)")
        return
    sub.add_argument("--database-url", metavar="URL", help="Postgres URL (default: "
                     "$DATABASE_URL, else the embedded Postgres in --data-dir)")
    sub.add_argument("--data-dir", default=".hearthlog", metavar="DIR",
                     help="where the embedded Postgres keeps its data (in DIR/pgdata)")


def add_serve(commands: Commands[argparse.ArgumentParser]) -> None:
    """The `serve` and `migrate` subcommands."""
    sub = command(commands, "serve", serve, "run the service (and the web client at /)")
    add_database(sub)
    sub.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    sub.add_argument("--port", type=int, default=8000, help="the port to listen on")
    sub.add_argument("--read-database-url", metavar="URL",
                     help="a streaming standby of the database, for reads that may be "
                     "slightly stale (default: $HEARTHLOG_READ_DATABASE_URL, else none; "
                     "docs/scaling.md)")
    sub.add_argument("--listen-database-url", metavar="URL",
                     help="a direct connection to the primary, for the LISTEN session and the "
                     "migrations, when --database-url goes through a connection pooler "
                     "(default: $HEARTHLOG_LISTEN_DATABASE_URL, else --database-url)")
    sub.add_argument("--no-statement-cache", action="store_true",
                     help="keep no prepared statements, as PgBouncer in transaction mode needs "
                     "(also HEARTHLOG_DATABASE_STATEMENT_CACHE=off)")
    sub.add_argument("--server", choices=("granian", "uvicorn"), default="granian",
                     help="the HTTP server (granian: the faster measured, docs/benchmarks.md)")
    sub.add_argument("--workers", type=at_least_one, metavar="N",
                     help="worker processes (default: $HEARTHLOG_WORKERS, else one per core)")
    sub.add_argument("--route-by-match", action="store_true",
                     help="run the workers as one-worker servers behind HAProxy, which sends "
                     "every request of a match to the same one (docs/scaling.md)")
    add_database(command(commands, "migrate", migrate, "apply pending database migrations"))


def add_play(commands: Commands[argparse.ArgumentParser]) -> None:
    """The `play` subcommand: join a seat (--name) or take yours back (--seat-token)."""
    sub = command(commands, "play", play, "play a seat of a match from this terminal")
    sub.add_argument("url", metavar="URL", help="the server, e.g. http://127.0.0.1:8000")
    sub.add_argument("--match", required=True, metavar="ID", help="the match's id")
    seat = sub.add_mutually_exclusive_group(required=True)
    seat.add_argument("--seat-token", metavar="T", help="the token of a seat you hold")
    seat.add_argument("--name", help="join the next free seat under this name")
    sub.add_argument("--client-seed", metavar="TEXT", help="your contribution to the match "
                     "seed, when joining (default: none)")


def add_export(commands: Commands[argparse.ArgumentParser]) -> None:
    """The `export` subcommand."""
    sub = command(commands, "export", export, "write finished matches to a file",
                  "Write finished matches to --out, from a server (--url) or a database "
                  "(--database-url, $DATABASE_URL, or the embedded one `hearthlog serve` keeps "
                  "in --data-dir); docs/export-format.md describes the formats.")
    sub.add_argument("--tournament", metavar="T",
                     help="only the matches tagged with this tournament (default: every match)")
    sub.add_argument("--game", metavar="G", help="only this game's matches (default: every game)")
    sub.add_argument("--finished-after", metavar="ISO",
                     help="only matches finished at or after this time, UTC if no zone is given "
                     "(default: no bound)")
    sub.add_argument("--finished-before", metavar="ISO",
                     help="only matches finished before this time, UTC if no zone is given "
                     "(default: no bound)")
    sub.add_argument("--format", choices=("ndjson", "csv", "events-csv", "parquet"),
                     default="ndjson", help="what to write (docs/export-format.md)")
    sub.add_argument("--bundle", action="store_true",
                     help="with --tournament: its verifiable bundle (header, rounds, matches, "
                     "standings) as NDJSON, once it is finished")
    sub.add_argument("--out", required=True, metavar="FILE", help="the file to write")
    source = sub.add_mutually_exclusive_group()
    source.add_argument("--url", metavar="SERVER", help="read from a server, e.g. "
                        "http://127.0.0.1:8000 (default: read the database)")
    source.add_argument("--database-url", metavar="URL", help="read from this Postgres "
                        "(default: $DATABASE_URL, else the embedded one in --data-dir, if "
                        "`hearthlog serve` has made it)")
    sub.add_argument("--data-dir", default=".hearthlog", metavar="DIR",
                     help="where `hearthlog serve` keeps its embedded Postgres (in DIR/pgdata)")


def parser() -> argparse.ArgumentParser:
    """The command line."""
    top = argparse.ArgumentParser(prog="hearthlog", formatter_class=ShowDefaults)
    top.add_argument("--version", action="version", version=f"%(prog)s {release()}")
    commands = top.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    add_serve(commands)
    spread = command(
        commands, "distribute", distribute, "place the tables on a Citus cluster "
        "(docs/scaling.md)", "Apply the pending migrations on a Citus coordinator, then make "
        "every table not yet placed a distributed or reference table as docs/scaling.md plans "
        "(rows already there are moved to the shards). Safe to run again.")
    add_database(spread, required=True)
    add_play(commands)
    doc = command(commands, "openapi", openapi, "write the OpenAPI document")
    doc.add_argument("--out", default=str(OPENAPI_PATH), metavar="FILE",
                     help="where to write it")
    add_export(commands)
    from service.cli.tournament import add_tournament  # the organizer's commands

    add_tournament(commands, command)
    from service.cli.apps import add_app  # the operator's client apps

    add_app(commands, command)
    check = command(commands, "verify", verify, "verify an export offline (exit 0 when all pass)")
    check.add_argument("file", metavar="FILE", nargs="+", help="one match's JSON export, NDJSON "
                       "of many, or a tournament's bundle (several only with --ratings)")
    check.add_argument("--ratings", metavar="RATINGS", help="a game's ratings export (NDJSON): "
                       "recomputed from the verified matches of every FILE, the first "
                       "difference named (default: none, the matches alone are verified; "
                       "docs/ratings.md)")
    check.add_argument("--jobs", type=at_least_one, metavar="N",
                       help="worker processes (default: one per core; 1: this process only)")
    top.description = (f"Hearthlog {release()}: an event-sourced match service for card games. "
                       f"Its subcommands: {', '.join(commands.choices)}.")
    return top


def release() -> str:
    """The installed version of Hearthlog."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hearthlog")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `hearthlog` command."""
    args = parser().parse_args(argv)
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader left (``| head``): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
