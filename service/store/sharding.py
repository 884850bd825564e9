"""How each table is placed when the database is sharded with Citus (docs/scaling.md,
"Sharding plan (Citus)"); tests/store/test_shardable.py holds the live schema to it.

Every table not named here is distributed by ``match_id`` and co-located with ``matches``.
"""

from __future__ import annotations

DISTRIBUTION_COLUMN = "match_id"
COLOCATE_WITH = "matches"

# Copied whole to every node: small, rarely written, read by joins anywhere.
REFERENCE = frozenset({"schema_migrations"})

# A second co-location group, distributed by tournament_id (the tournament tables, migration
# 0008); a tournament table's match_id is a plain column, never a foreign key across groups.
TOURNAMENT_COLUMN = "tournament_id"
TOURNAMENT_GROUP = frozenset(
    {"tournaments", "tournament_entrants", "tournament_rounds", "tournament_tables"}
)


def placement(table: str) -> tuple[str, str | None]:
    """("reference", None), ("tournament", tournament_id) or ("match", match_id)."""
    if table in REFERENCE:
        return "reference", None
    if table in TOURNAMENT_GROUP:
        return "tournament", TOURNAMENT_COLUMN
    return "match", DISTRIBUTION_COLUMN


def citus_statements(tables: list[str]) -> list[str]:
    """The Citus calls that place ``tables`` (run on the coordinator, ``matches`` first)."""
    ordered = sorted(tables, key=lambda t: (t != COLOCATE_WITH, t))
    anchors = {"match": COLOCATE_WITH, "tournament": min(TOURNAMENT_GROUP, default="")}
    calls = []
    for table in ordered:
        kind, column = placement(table)
        if kind == "reference":
            calls.append(f"SELECT create_reference_table('{table}');")
            continue
        # A group's first table starts it ('none': the tournament group must not join the
        # other group even when both keys are uuids); the others are co-located with it.
        group = "none" if table == anchors[kind] else anchors[kind]
        calls.append(f"SELECT create_distributed_table('{table}', '{column}', "
                     f"colocate_with => '{group}');")
    return calls
