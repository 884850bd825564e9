"""The `hearthlog` command: serve, migrate, openapi."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from pathlib import Path

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def database_url(args: argparse.Namespace) -> str:
    """The Postgres to use: --database-url, else DATABASE_URL, else the embedded one."""
    url = args.database_url or os.environ.get("DATABASE_URL")
    if url:
        return url
    from service.postgres import start_embedded

    print(f"Starting the embedded Postgres in {args.data_dir}/ ...", flush=True)
    return start_embedded(Path(args.data_dir).resolve() / "pgdata")


def serve(args: argparse.Namespace) -> int:
    """Run the service until interrupted."""
    import uvicorn

    from service import logs
    from service.app import create_app

    logs.configure()
    # uvicorn re-raises SIGTERM after its graceful shutdown; exiting through Python instead
    # lets the embedded Postgres be stopped at exit rather than left running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    app = create_app(database_url(args))
    base = f"http://{args.host}:{args.port}"
    print(f"Hearthlog is serving at {base}\nAPI docs: {base}/docs\n", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def migrate(args: argparse.Namespace) -> int:
    """Apply every pending migration, then exit."""
    from service.migrations import apply_migrations

    applied = asyncio.run(apply_migrations(database_url(args)))
    print("\n".join(f"applied {name}" for name in applied) or "nothing to apply")
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

    from service.app import create_app

    schema = create_app().openapi_schema.to_schema()
    return json.dumps(schema, indent=2, sort_keys=True, default=msgspec.to_builtins)


def parser() -> argparse.ArgumentParser:
    """The command line."""
    top = argparse.ArgumentParser(prog="hearthlog", description=__doc__)
    commands = top.add_subparsers(dest="command", required=True)
    for name, handler, help_text in (
        ("serve", serve, "run the service"),
        ("migrate", migrate, "apply database migrations"),
    ):
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("--database-url", help="Postgres URL (default: $DATABASE_URL, "
                         "else an embedded Postgres in --data-dir)")
        sub.add_argument("--data-dir", default=".hearthlog",
                         help="where the embedded Postgres lives")
        sub.set_defaults(handler=handler)
    serve_cmd = commands.choices["serve"]
    serve_cmd.add_argument("--host", default="127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8000)
    doc = commands.add_parser("openapi", help="write the OpenAPI document")
    doc.add_argument("--out", default=str(OPENAPI_PATH))
    doc.set_defaults(handler=openapi)
    return top


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `hearthlog` command."""
    args = parser().parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
