"""What keeps the schema and the command path shardable by match_id, read from Postgres itself.

``schema_problems`` reads the catalog (pg_class, pg_attribute, pg_index, pg_constraint) of one
schema against service.store.sharding's placements; ``plan_problems`` reads a statement's EXPLAIN and
names every table it touches without pinning a single match_id. Each returns sentences, empty
when all is well; docs/scaling.md ("Sharding plan (Citus)") says why each rule holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import asyncpg
import msgspec

from service.store.sharding import placement

Placement = Callable[[str], tuple[str, str | None]]

TABLES = """SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname"""
_COLUMNS = """SELECT attname FROM pg_attribute WHERE attrelid = $1 AND attnum > 0
    AND NOT attisdropped"""
_UNIQUE = """SELECT ic.relname AS name, array(SELECT a.attname FROM unnest(i.indkey) AS k(n)
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n) AS columns
    FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
    WHERE i.indrelid = $1 AND i.indisunique"""
_FOREIGN = """SELECT con.conname AS name, con.confrelid::regclass::text AS target,
        ref.relname AS target_name,
        array(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY AS k(n, i)
              JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n
              ORDER BY k.i) AS columns,
        array(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY AS k(n, i)
              JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n
              ORDER BY k.i) AS target_columns
    FROM pg_constraint con JOIN pg_class ref ON ref.oid = con.confrelid
    WHERE con.conrelid = $1 AND con.contype = 'f'"""


async def schema_problems(conn: asyncpg.Connection, schema: str = "public",
                          placed: Placement = placement) -> list[str]:
    """Every way the schema's tables break their placement: a distributed table without its
    key column, a primary or unique key without it, a foreign key that is not co-located."""
    problems: list[str] = []
    for table in await conn.fetch(TABLES, schema):
        name, oid = table["relname"], table["oid"]
        kind, key = placed(name)
        if kind == "reference":
            continue
        columns = {row["attname"] for row in await conn.fetch(_COLUMNS, oid)}
        if key not in columns:
            problems.append(f"table {name} has no {key} column: distribute it by {key} or "
                            "declare it in service/store/sharding.py")
            continue
        for index in await conn.fetch(_UNIQUE, oid):
            if key not in index["columns"]:
                problems.append(f"unique key {index['name']} of {name} lacks {key}")
        for foreign in await conn.fetch(_FOREIGN, oid):
            problems += _foreign_problems(name, kind, key, foreign, placed)
    return problems


async def match_tables(conn: asyncpg.Connection, schema: str = "public") -> set[str]:
    """The schema's tables distributed by match_id."""
    return {row["relname"] for row in await conn.fetch(TABLES, schema)
            if placement(row["relname"])[0] == "match"}


def _foreign_problems(name: str, kind: str, key: str, foreign: asyncpg.Record,
                      placed: Placement) -> list[str]:
    """A foreign key must point at a reference table, or at a table of the same group through
    the group's key on both sides."""
    target_kind, _ = placed(foreign["target_name"])
    if target_kind == "reference":
        return []
    pairs = set(zip(foreign["columns"], foreign["target_columns"], strict=True))
    if target_kind != kind or (key, key) not in pairs:
        return [f"foreign key {foreign['name']} of {name} to {foreign['target']} is not "
                f"co-located: both sides must be keyed by {key}, and the key must include it"]
    return []


class Recorded(msgspec.Struct, frozen=True):
    """One statement the command path ran, with its parameters."""

    query: str
    args: tuple[Any, ...]


_PINNED = re.compile(r"\bmatch_id = (\$\d+|'[0-9a-f-]{36}'::uuid)")
_ONE_VALUE = re.compile(r"^(\$\d+|'[0-9a-f-]{36}'::uuid|[a-z_]+\.match_id)$")
_EXPLAINABLE = re.compile(r"^\s*(WITH|SELECT|INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


class PlanCheck:
    """EXPLAINs statements on the match tables and names what touches more than one match."""

    def __init__(self, conn: asyncpg.Connection, key_positions: dict[str, int]) -> None:
        self.conn, self.positions = conn, key_positions

    @classmethod
    async def load(cls, conn: asyncpg.Connection, tables: set[str]) -> PlanCheck:
        """A check over ``tables``, knowing where match_id sits in each (dropped columns count:
        an insert's plan lays its values out in attribute order, a NULL for each dropped one)."""
        rows = await conn.fetch("""SELECT c.relname, a.attnum FROM pg_attribute a
            JOIN pg_class c ON c.oid = a.attrelid
            WHERE c.relname = ANY($1::text[]) AND a.attname = 'match_id'""", sorted(tables))
        return cls(conn, {row["relname"]: row["attnum"] - 1 for row in rows})

    async def problems(self, statement: Recorded) -> list[str]:
        """EXPLAIN the statement with its parameters; name each node on a match table that
        does not pin one match_id, and a statement pinning several values."""
        if not _EXPLAINABLE.match(statement.query):
            return []
        plan = await self.conn.fetchval(f"EXPLAIN (VERBOSE, FORMAT JSON) {statement.query}",
                                        *statement.args)
        problems, values = [], set()
        for node in _nodes(msgspec.json.decode(plan)[0]["Plan"]):
            relation = node.get("Relation Name")
            if relation not in self.positions or node.get("Operation") in ("Update", "Delete"):
                continue  # not a match table; an update's or delete's scan below is checked
            if node.get("Operation") == "Insert":
                value = self._inserted_key(node, relation)
                if value is None or not _ONE_VALUE.match(value):
                    problems.append(f"an insert into {relation} takes match_id from {value!r}")
                continue
            found = {m.group(1) for m in _PINNED.finditer(_conditions(node))}
            if not found:
                problems.append(f"a {node['Node Type']} on {relation} pins no single match_id")
            values |= found
        if len(values) > 1:
            problems.append(f"the statement pins several match_ids: {sorted(values)}")
        return [f"{problem} in: {' '.join(statement.query.split())[:160]}" for problem in problems]

    def _inserted_key(self, node: dict[str, Any], relation: str) -> str | None:
        """The expression an insert's rows take match_id from (its source's output)."""
        source = node.get("Plans", [{}])[0].get("Output", [])
        position = self.positions[relation]
        return source[position] if position < len(source) else None


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A plan node and every node below it."""
    yield node
    for child in node.get("Plans", []):
        yield from _nodes(child)


def _conditions(node: dict[str, Any]) -> str:
    """A scan's conditions: its index condition, recheck and filter, as one text."""
    return " ".join(str(node.get(part, "")) for part in ("Index Cond", "Recheck Cond", "Filter"))


async def citus_tasks(conn: asyncpg.Connection, statement: Recorded) -> list[dict[str, Any]]:
    """Every distributed job in a statement's plan on a Citus coordinator (its EXPLAIN with its
    parameters), subplans included: empty for a statement on no distributed table."""
    if not _EXPLAINABLE.match(statement.query):
        return []
    plan = await conn.fetchval(f"EXPLAIN (FORMAT JSON) {statement.query}", *statement.args)
    return list(_jobs(msgspec.json.decode(plan)))


async def citus_problems(conn: asyncpg.Connection, statement: Recorded) -> list[str]:
    """Every way a statement reaches more than one match's shard: a job of several tasks, or
    tasks on several nodes. (Citus runs the parts of a statement with several modifying CTEs
    apart, each a job of its own, all in one distributed transaction: docs/scaling.md.)"""
    jobs = await citus_tasks(conn, statement)
    problems = [f"a job of {job.get('Task Count')} tasks" for job in jobs
                if job.get("Task Count") != 1]
    nodes = {task["Node"] for job in jobs for task in job.get("Tasks", [])
             if "Node" in task and _relations(task)}  # not the coordinator's own last step
    if len(nodes) > 1:
        problems.append(f"tasks on {len(nodes)} nodes")
    where = " ".join(statement.query.split())[:160]
    return [f"{problem} in: {where}" for problem in problems]


def _relations(plan: Any) -> set[str]:
    """Every relation (a shard, on a worker) an EXPLAIN's JSON scans or writes."""
    if isinstance(plan, dict):
        found = {plan["Relation Name"]} if "Relation Name" in plan else set()
        return found.union(*(_relations(value) for value in plan.values()))
    if isinstance(plan, list):
        return set().union(*(_relations(value) for value in plan))
    return set()


def _jobs(plan: Any) -> Iterator[dict[str, Any]]:
    """Every Citus job anywhere in an EXPLAIN's JSON."""
    if isinstance(plan, dict):
        if isinstance(plan.get("Job"), dict):
            yield plan["Job"]
        for value in plan.values():
            yield from _jobs(value)
    elif isinstance(plan, list):
        for value in plan:
            yield from _jobs(value)
