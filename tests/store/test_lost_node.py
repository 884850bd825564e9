"""A database away answers 503, whichever way it says so: a Citus coordinator that lost a worker
in the middle of a transaction raises an internal error with its own message (XX000), not a
connection error; nothing was done, so it is an outage, not a fault."""

from __future__ import annotations

import asyncpg

from service.http.app import internal_or_away
from service.store.provisioning import LOST_NODE, unavailable


def test_a_worker_lost_mid_transaction_is_an_outage_and_other_internal_errors_are_faults():
    """Given the coordinator's error for a worker lost mid-transaction, then it counts as the
    database away and is answered 503 with Retry-After; another internal error does not."""
    lost = asyncpg.InternalServerError(f"{LOST_NODE}: 127.0.0.1:5433")
    refused = asyncpg.ConnectionFailureError("connection to the remote node failed")

    answer = internal_or_away(None, lost)  # type: ignore[arg-type]

    assert unavailable(lost) and unavailable(refused)
    assert not unavailable(asyncpg.InternalServerError("could not open relation"))
    assert (answer.status_code, answer.headers["Retry-After"]) == (503, "1")
