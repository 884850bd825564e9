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
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
KIB_PER_COMMAND = 4.0  # the second half's growth allowed per command answered


@pytest.mark.slow
def test_server_memory_levels_off_under_followers(tmp_path):
    """Given 100 long matches played at a move every 2 s with 200 followers for a minute and a
    half against a real `hearthlog serve`, when the windows have filled, then the server's
    memory grows by less than 4 KiB per command answered over the second half of the soak."""
    out = tmp_path / "soak.json"
    ran = subprocess.run(
        [sys.executable, "-m", "bench.soak", "--minutes", "1.5", "--matches", "100",
         "--followers", "200", "--pace", "2", "--long", "--out", str(out)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=900,
        capture_output=True, text=True)
    assert ran.returncode == 0, f"the soak exited {ran.returncode}:\n{ran.stderr[-12000:]}"
    found = json.loads(out.read_text())
    per_second = found["commands"]["rate"]
    assert per_second > 20, found["commands"]
    second_half = found["memory_slope"]["second_half_mib_per_s"]
    kib_per_command = second_half * 1024 / per_second
    assert kib_per_command < KIB_PER_COMMAND, (found["memory_slope"], found["samples"])
