"""`hearthlog app add NAME` and `hearthlog app list`: an operator registers client apps on the
database itself (the server's POST /apps does the same with HEARTHLOG_OPERATOR_TOKEN).

The key is printed once; a running server sees a new app within a few seconds (its key cache,
service.apps.CACHE_SECONDS). docs/api.md, "Client apps".
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

import msgspec

from service.apps import APP_MATCHES_PER_HOUR, APP_REQUESTS_PER_MINUTE, AppService, NewAppBody


def add_app(commands: Any, command: Any) -> None:
    """The `app` subcommand and its actions: add, list."""
    from service.cli.main import add_database, at_least_one

    top = command(commands, "app", None, "register and list client apps (operator)",
                  "Client apps send their key as X-Api-Key and are limited by their own quotas "
                  "instead of their address's (docs/limits.md).")
    subs = top.add_subparsers(dest="action", required=True, metavar="ACTION",
                              help="what to do (each has its own --help)")
    add = subs.add_parser("add", help="register an app; prints its id and key (shown once)",
                          description="Register an app; prints its id and its key, shown once.")
    add.add_argument("name", metavar="NAME", help="the app's name (unique)")
    add.add_argument("--requests-per-minute", type=at_least_one, metavar="N",
                     default=APP_REQUESTS_PER_MINUTE, help="its requests a minute (default: "
                     f"{APP_REQUESTS_PER_MINUTE})")
    add.add_argument("--matches-per-hour", type=at_least_one, metavar="N",
                     default=APP_MATCHES_PER_HOUR, help="its matches created an hour (default: "
                     f"{APP_MATCHES_PER_HOUR})")
    add_database(add)
    add.set_defaults(handler=lambda args: _run(_add, args))
    listed = subs.add_parser("list", help="list the apps and their quotas (never a key)",
                             description="List the apps and their quotas; keys are never shown.")
    add_database(listed)
    listed.set_defaults(handler=lambda args: _run(_list, args))


def _run(action: Any, args: argparse.Namespace) -> int:
    """Migrate the database, then run the action on it; a refusal is one line on stderr."""
    from service.cli.main import database_url
    from service.errors import ServiceError

    url = database_url(args)
    try:
        return asyncio.run(_on_database(action, url, args))
    except (ServiceError, ValueError) as error:
        message = error.message if isinstance(error, ServiceError) else str(error)
        print(f"hearthlog app {args.action}: {message}", file=sys.stderr)
        return 1


async def _on_database(action: Any, url: str, args: argparse.Namespace) -> int:
    """The action over the apps' service on a pool of the migrated database."""
    from service.store.apps import AppStore
    from service.store.migrations import apply_migrations
    from service.store.provisioning import create_pool

    await apply_migrations(url)
    pool = await create_pool(url, max_size=2)
    try:
        result: int = await action(AppService(AppStore(pool), None), args)
        return result
    finally:
        await pool.close()


async def _add(apps: AppService, args: argparse.Namespace) -> int:
    """Register the app; print its id, quotas and key."""
    try:
        body = msgspec.convert({"name": args.name, "requests_per_minute": args.requests_per_minute,
                                "matches_per_hour": args.matches_per_hour}, NewAppBody)
    except msgspec.ValidationError as error:
        raise ValueError(str(error)) from None
    made = await apps.create(body)
    print(f"app {made.name}: id {made.app_id}, {made.requests_per_minute} requests a minute, "
          f"{made.matches_per_hour} matches an hour")
    print(f"key (shown once; send it as X-Api-Key): {made.key}")
    return 0


async def _list(apps: AppService, args: argparse.Namespace) -> int:
    """One line per app: id, name, quotas, when registered."""
    found = (await apps.listed()).apps
    for app in found:
        print(f"{app.app_id}  {app.name}  {app.requests_per_minute}/min  "
              f"{app.matches_per_hour}/h  {app.created_at.isoformat(timespec='seconds')}")
    if not found:
        print("no apps registered")
    return 0
