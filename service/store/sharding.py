"""How each table is placed when the database is sharded with Citus (docs/scaling.md,
"Sharding plan (Citus)"), and ``distribute``, which places them (``hearthlog distribute``);
tests/store/test_shardable.py holds the live schema to it, on Postgres and on a real cluster.

Every table not named here is distributed by ``match_id`` and co-located with ``matches``.
"""

from __future__ import annotations

from collections.abc import Mapping

import asyncpg
import msgspec

DISTRIBUTION_COLUMN = "match_id"
COLOCATE_WITH = "matches"

# Copied whole to every node: small, rarely written, read by joins anywhere. ``apps`` (client
# apps, migration 0011): a few rows an operator writes, read by key hash on any request, and
# named by ``players.app_id`` in any group.
# ``queue_entries`` (the play queue, migration 0013): the players waiting now, a row each, keyed
# by player_id alone (one wait a player), read whole per game by the matcher and claimed by it
# in one transaction with row locks; small, and written only as people join, leave and are
# seated. Its formed tables (``queue_tables``) are keyed by match_id: the match group.
REFERENCE = frozenset({"schema_migrations", "apps", "queue_entries"})

# Players (migration 0010): each written once, when made, and read beside either group's tables
# (a seat's player in the match group, an entrant's in the tournament group), so copied whole
# to every node: its unique keys (name, token hash) then need no distribution column.
PLAYER_TABLES = frozenset({"players"})

# A second co-location group, distributed by tournament_id (the tournament tables, migration
# 0008), anchored on ``tournaments``; a tournament table's match_id is a plain column, never a
# foreign key across groups, and no statement joins the two groups (the sweep reads each apart).
TOURNAMENT_COLUMN = "tournament_id"
TOURNAMENT_ANCHOR = "tournaments"
TOURNAMENT_GROUP = frozenset(
    {"tournaments", "tournament_entrants", "tournament_rounds", "tournament_tables"}
)
# A third group, distributed by game (the ratings, migration 0012), anchored on rated_matches:
# every read and every apply of ratings names one game, so each runs on one shard, and the
# per-game sequence can be a unique key. A rated match's match_id is a plain column: the
# ratings read the match group apart, never in a join (service/store/ratings.py).
RATING_COLUMN = "game"
RATING_ANCHOR = "rated_matches"
RATING_GROUP = frozenset({"rated_matches", "rating_updates", "rating_standings"})
ANCHORS = {"match": COLOCATE_WITH, "tournament": TOURNAMENT_ANCHOR, "rating": RATING_ANCHOR}

_TABLES = """SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname"""
_PARENTS = """SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE k.contype = 'f' AND n.nspname = 'public' AND k.conrelid <> k.confrelid"""
_PLACED = """SELECT c.relname FROM pg_dist_partition d JOIN pg_class c ON c.oid = d.logicalrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'"""
_HAS_CITUS = "SELECT count(*) > 0 FROM pg_extension WHERE extname = 'citus'"


class NotCitus(Exception):
    """The database has no citus extension: there is nothing to distribute over."""


class Placement(msgspec.Struct, frozen=True):
    """Where one table goes: a reference table, or distributed by ``column`` with a group."""

    table: str
    kind: str  # "reference", "match", "tournament" or "rating"
    column: str | None
    colocate_with: str | None  # "none" for a group's anchor, else the anchor's name

    def statement(self) -> str:
        """The Citus call as text (what ``distribute`` runs, for an operator to read)."""
        if self.kind == "reference":
            return f"SELECT create_reference_table('{self.table}');"
        return (f"SELECT create_distributed_table('{self.table}', '{self.column}', "
                f"colocate_with => '{self.colocate_with}');")


def placement(table: str) -> tuple[str, str | None]:
    """("reference", None), ("tournament", tournament_id), ("rating", game) or ("match",
    match_id)."""
    if table in REFERENCE or table in PLAYER_TABLES:
        return "reference", None
    if table in TOURNAMENT_GROUP:
        return "tournament", TOURNAMENT_COLUMN
    if table in RATING_GROUP:
        return "rating", RATING_COLUMN
    return "match", DISTRIBUTION_COLUMN


def plan(tables: list[str], parents: Mapping[str, set[str]] | None = None) -> list[Placement]:
    """The placements of ``tables`` in an order Citus accepts: reference tables, then each
    group's anchor, then every table after the tables its foreign keys point at."""
    parents = parents or {}
    kinds = {table: placement(table) for table in tables}
    rank = {"reference": 0, "match": 1, "tournament": 2, "rating": 3}

    def key(table: str) -> tuple[int, bool, str]:
        kind = kinds[table][0]
        return rank[kind], table != ANCHORS.get(kind), table

    ordered: list[Placement] = []
    waiting = sorted(tables, key=key)
    while waiting:
        ready = next((t for t in waiting if not parents.get(t, set()) & set(waiting)), waiting[0])
        waiting.remove(ready)
        kind, column = kinds[ready]
        group = None if kind == "reference" else (
            "none" if ready == ANCHORS[kind] else ANCHORS[kind])
        ordered.append(Placement(ready, kind, column, group))
    return ordered


def citus_statements(tables: list[str], parents: Mapping[str, set[str]] | None = None,
                     ) -> list[str]:
    """The Citus calls that place ``tables`` (run on the coordinator, in this order)."""
    return [placed.statement() for placed in plan(tables, parents)]


async def has_citus(conn: asyncpg.Connection) -> bool:
    """Whether the citus extension is installed in this database."""
    return bool(await conn.fetchval(_HAS_CITUS))


async def unplaced(conn: asyncpg.Connection) -> list[Placement]:
    """The placements still to make: every table of the schema not yet distributed or
    referenced, in the order ``plan`` gives."""
    tables = [row["relname"] for row in await conn.fetch(_TABLES)]
    placed = {row["relname"] for row in await conn.fetch(_PLACED)}
    parents: dict[str, set[str]] = {}
    for row in await conn.fetch(_PARENTS):
        parents.setdefault(row["child"], set()).add(row["parent"])
    return plan([t for t in tables if t not in placed], parents)


async def place(conn: asyncpg.Connection, placements: list[Placement]) -> list[str]:
    """Make each placement, one statement (and transaction) each, so a run cut short is taken
    up again by the next; then drop the local copies of the rows Citus moved to the shards.
    The statements made."""
    for placed in placements:
        if placed.kind == "reference":
            await conn.execute("SELECT create_reference_table($1::regclass)", placed.table)
        else:
            await conn.execute(
                "SELECT create_distributed_table($1::regclass, $2, colocate_with => $3)",
                placed.table, placed.column, placed.colocate_with)
    for placed in reversed(placements):  # a table's rows before those its keys point at
        await conn.execute("SELECT truncate_local_data_after_distributing_table($1::regclass)",
                           placed.table)
    return [placed.statement() for placed in placements]


async def keep_placed(conn: asyncpg.Connection) -> list[str]:
    """On a database already distributed (``matches`` placed by Citus), place the tables made
    since (a migration's new table), so migrations keep the plan; elsewhere nothing."""
    if not await has_citus(conn):
        return []
    if not await conn.fetchval(f"SELECT count(*) > 0 FROM ({_PLACED}) p WHERE relname = $1",
                               COLOCATE_WITH):
        return []
    return await place(conn, await unplaced(conn))
