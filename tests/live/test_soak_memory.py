"""Memory flat under followers (issue 33): a short soak whose server memory must level off.

A feed keeps a bounded window of changes per followed match (service/live/feed.py, WINDOW), so
under steady play with followers a server's memory grows while the windows fill and then only
by each match's log. The soak (bench/soak.py) samples the server's memory every 10 s and reports
the slope of each half. Here the matches are long (few end, so no new match's cache entries
count) and a move comes every 2 s per match, so the windows fill in the first 32 s and the
second half's slope, per command answered, is a growth that would not level off. Measured
(docs/benchmarks.md): before the fix, a window of 64 states and each shaped update's Struct
kept beside its JSON, about 8 KiB a command; after the window's fix, about 2 KiB, most of it
each feed's log of the whole match, which a feed no longer holds either.

The second soak replaces its matches all the time (an ember target of 1: a match ends within
seconds, and its followers move to the next), so what a finished match leaves behind counts.
A feed its last follower had left stayed in memory, window and all, until a full pass of the
cyclic collector (its cancelled reader's frame held it), which the worker's tuned collector
seldom makes: about 27 KiB a replaced match in this soak, 120 KiB in the 8-minute soak of 1,000
matches; since the fix about 7 KiB, the bounded caches (the state cache's 2,048 matches a worker)
filling.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
KIB_PER_COMMAND = 4.0  # the second half's growth allowed per command answered
KIB_PER_REPLACED_MATCH = 16.0  # the second half's growth allowed per match finished and replaced


def soak(tmp_path: Path, *flags: str) -> dict[str, Any]:
    """Run bench.soak for a minute and a half with 100 matches and 200 followers; its figures."""
    out = tmp_path / "soak.json"
    ran = subprocess.run(
        [sys.executable, "-m", "bench.soak", "--minutes", "1.5", "--matches", "100",
         "--followers", "200", *flags, "--out", str(out)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=900,
        capture_output=True, text=True)
    assert ran.returncode == 0, f"the soak exited {ran.returncode}:\n{ran.stderr[-12000:]}"
    found: dict[str, Any] = json.loads(out.read_text())
    return found


@pytest.mark.slow
def test_server_memory_levels_off_under_followers(tmp_path):
    """Given 100 long matches played at a move every 2 s with 200 followers for a minute and a
    half against a real `hearthlog serve`, when the windows have filled, then the server's
    memory grows by less than 4 KiB per command answered over the second half of the soak."""
    found = soak(tmp_path, "--pace", "2", "--long")
    per_second = found["commands"]["rate"]
    assert per_second > 20, found["commands"]
    second_half = found["memory_slope"]["second_half_mib_per_s"]
    kib_per_command = second_half * 1024 / per_second
    assert kib_per_command < KIB_PER_COMMAND, (found["memory_slope"], found["samples"])


@pytest.mark.slow
def test_server_memory_levels_off_while_matches_end_and_are_replaced(tmp_path):
    """Given 100 matches to an ember target of 1 played at a move a second with 200 followers
    for a minute and a half, each match replaced as it ends (about 2,400 in all), then over the
    second half the server's memory grows by less than 16 KiB per match replaced, and nothing
    acknowledged was lost."""
    found = soak(tmp_path, "--pace", "1", "--short")
    assert found["finished"] > 1000 and found["audit"]["lost"] == 0, found["audit"]
    per_match = found["second_half_kib_per_replaced_match"]
    assert per_match is not None and per_match < KIB_PER_REPLACED_MATCH, (
        found["memory_slope"], found["samples"])
