"""Stream slots (service/http/limits.py): the queue's streams count for their client and the
process, never for a match."""

from __future__ import annotations

import pytest

from service.errors import ServiceError
from service.http.limits import Limits, StreamSlots


def test_queue_streams_count_per_client_and_never_fill_a_match() -> None:
    slots = StreamSlots(Limits(streams_per_client=2, streams_per_match=1))
    slots.take("10.0.0.1", None)
    slots.take("10.0.0.2", None)  # a match's per-match limit of 1 is no queue's limit
    slots.take("10.0.0.1", "m")
    with pytest.raises(ServiceError) as refused:
        slots.take("10.0.0.1", None)
    assert refused.value.status == 429 and "HEARTHLOG_STREAMS_PER_CLIENT" in refused.value.message
    slots.give_back("10.0.0.1", None)
    slots.take("10.0.0.1", None)
    assert slots.followers == {"m": 1}
