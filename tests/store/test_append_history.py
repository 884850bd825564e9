"""An append chained from a head the database no longer has at that version: after a failover to
an asynchronous standby, other events may have taken versions a server process saw. The append
must write nothing (the events were decided on the old history) and say so, never chain them
onto the other events.

Two stores on one database stand for two server processes; the failover is played in SQL: the
match is put back to version 1, as the promoted standby had it, and the other process appends
there.
"""

from __future__ import annotations

import uuid

import asyncpg
import pytest

from projections.summary import Summary
from service.store import Change, NewEvent, NewMatch, PostgresStore, VersionConflict
from service.store.records import HistoryChanged

SUMMARY = Summary(names=("Ash", "Bryn"), bots=(None, None))
CHANGE = Change(status="playing", summary=SUMMARY)


def event(text: str) -> NewEvent:
    """A small JSON event (the store keeps any)."""
    return NewEvent(type="note", data=f'{{"note": "{text}"}}'.encode())


async def test_an_append_on_another_history_at_the_same_version_writes_nothing(
    pool: asyncpg.Pool):
    """Given process A that appended version 2, when the database goes back to version 1 and
    process B appends another version 2, then A's append at version 2 is refused as a changed
    history (a version conflict) and writes nothing; A's next try, at the database's head, is
    written on B's event."""
    a, b = PostgresStore(pool), PostgresStore(pool)
    match_id = str(uuid.uuid4())
    await a.create_match(NewMatch(
        match_id=match_id, game="wick-and-ember", rules_version="1", seats=2, practice=False,
        tournament=None, label=None, seed_commitment="0" * 64, server_seed=bytes(32),
        host_token_hash=None, summary=SUMMARY, first=event("created")))
    await a.append(match_id, 1, [event("A's second")], CHANGE)
    async with pool.acquire() as connection:  # the promoted standby never had version 2
        await connection.execute("DELETE FROM events WHERE match_id = $1 AND version > 1",
                                 uuid.UUID(match_id))
        await connection.execute(
            """UPDATE heads SET version = 1, head_hash = (SELECT hash FROM events
            WHERE match_id = $1 AND version = 1) WHERE match_id = $1""", uuid.UUID(match_id))
    theirs = await b.append(match_id, 1, [event("B's second")], CHANGE)
    with pytest.raises(HistoryChanged) as refused:
        await a.append(match_id, 2, [event("A's third, decided on A's second")], CHANGE)
    assert isinstance(refused.value, VersionConflict) and refused.value.current == 2
    assert [e.data for e in await a.load(match_id)] == [event("created").data,
                                                        event("B's second").data]
    again = await a.append(match_id, 2, [event("A's third, decided again")], CHANGE)
    assert [e.version for e in again] == [3]
    assert [e.hash for e in await a.load(match_id, after=1, upto=2)] == [theirs[0].hash]
