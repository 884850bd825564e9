"""The append statement is planned once per connection and shape, not once per append."""

from __future__ import annotations

import pytest

from projections.summary import Summary
from service.store import Change, CommandRecord, PostgresStore
from service.store.provisioning import create_pool
from service.store.records import OwedSince
from tests.store.contract import event, new_match

APPENDS = 12  # Postgres tries a custom plan five times before it may settle on the generic one


def _change(version: int, owed: OwedSince | None, command: bool) -> Change:
    """A change in play, owing as given, with a command record when asked."""
    record = CommandRecord(command_id=f"c{version}", seat=0, response=b"{}", status_code=200,
                           version=version) if command else None
    return Change(status="playing", summary=Summary(), command=record, owed=owed)


@pytest.mark.parametrize(("events", "owed", "command"), [
    (1, None, False),  # the bare append (bench/appends.py)
    (1, None, True),  # a command at a table without a turn clock: its record
    (3, None, True),
    (1, "this", True),  # a command: its record, the seat to act owing from this append
    (2, "this", True),
    (1, "earlier", False),  # a seat that began to owe before this append still owes
])
async def test_each_shape_of_append_runs_on_a_plan_postgres_keeps(
    database_url: str, events: int, owed: str | None, command: bool
) -> None:
    """Given one connection, when the same shape of append runs a dozen times, then Postgres
    runs it on its cached generic plan (a custom plan is a fresh planning of the statement:
    the largest part of an append's cost while every append was planned afresh)."""
    pool = await create_pool(database_url, min_size=1, max_size=1)
    try:
        store = PostgresStore(pool)
        match_id = await new_match(store)
        version = 1
        for n in range(APPENDS):
            new = version + events
            since = {None: None, "this": OwedSince(clock=new), "earlier": OwedSince(clock=1)}
            await store.append(match_id, version, [event(card=n + k) for k in range(events)],
                               _change(new, since[owed], command))
            version = new
        plans = await pool.fetchrow(  # the first append also writes the row: a shape of its own
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
            "WHERE statement LIKE '%UPDATE heads SET version%' "
            "ORDER BY generic_plans + custom_plans DESC LIMIT 1")
    finally:
        await pool.close()

    assert tuple(plans) == (APPENDS - 1 - 5, 5)


@pytest.mark.parametrize("upto", [False, True])
async def test_reading_a_match_back_runs_on_a_plan_postgres_keeps(
    database_url: str, upto: bool
) -> None:
    """Given one connection and five matches of 200 events, analysed, when the last changes of
    one are read a dozen times (a feed reading each change back; with an upper bound, as a
    cold load's times are read), then Postgres runs the read on its cached generic plan."""
    pool = await create_pool(database_url, min_size=1, max_size=1)
    try:
        store = PostgresStore(pool)
        matches = [await new_match(store) for _ in range(5)]
        for match_id in matches:
            await store.append(match_id, 1, [event(card=n) for n in range(200)],
                               _change(201, None, False))
        await pool.execute("ANALYZE events")
        for n in range(APPENDS):
            after = 198 + n % 3
            read = await store.load(matches[0], after=after, upto=201 if upto else None)
            assert [e.version for e in read] == list(range(after + 1, 202))
        plans = await pool.fetchrow(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
            "WHERE statement LIKE '%recorded_at, hash FROM events%' "
            "AND statement NOT LIKE '%pg_prepared_statements%'")
    finally:
        await pool.close()

    assert tuple(plans) == (APPENDS - 5, 5)
