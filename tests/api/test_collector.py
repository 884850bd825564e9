"""The worker's cyclic garbage collector is tuned at start-up (docs/benchmarks.md)."""

from __future__ import annotations

import gc

from service.http.app import tune_collector


def test_start_up_freezes_its_objects_and_collects_the_young_generation_less_often() -> None:
    """Given the start-up tuning, then start-up objects are frozen and the young generation
    is collected every 25,000 new objects, not every 700."""
    saved = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (25_000, 10, 10)
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)
