"""Random sampling on a budget: which random matches a sampling test plays in this run.

A sampling test checks a property over random matches (docs/testing.md). It plays a fixed count
per run, its budget, from one start seed. The start seed is derived from the commit under test,
so every commit samples matches that no commit before it played, while a run of the same commit
plays the same matches again. The run's header prints the seed; a failing sample prints the one
command that replays exactly that failure:

    HEARTHLOG_SEED=<seed> .venv/bin/python -m pytest '<test id>'

``make sample-all`` (HEARTHLOG_SAMPLES=all) plays every sampling test at its full volume instead.
Test ids number the samples from 0, so they are the same at every commit: sample ``k`` plays
match index ``start_seed() + k``.
"""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

import pytest

SEED = "HEARTHLOG_SEED"  # the start seed, overriding the commit's
SAMPLES = "HEARTHLOG_SAMPLES"  # "all": every sampling test at its full volume
ROOT = Path(__file__).resolve().parent.parent
MARK = pytest.mark.sampling


@functools.cache
def commit() -> str | None:
    """The commit id of the checkout under test, None outside a git checkout."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


@functools.cache
def start_seed() -> int:
    """HEARTHLOG_SEED when set, else the commit id's first 32 bits, else 0."""
    if given := os.environ.get(SEED):
        return int(given)
    found = commit()
    return int(found[:8], 16) if found else 0


def full() -> bool:
    """Whether this run plays every sampling test at its full volume (make sample-all)."""
    return os.environ.get(SAMPLES) == "all"


def count(budget: int, full_volume: int) -> int:
    """How many samples a test plays this run: its budget, or its full volume."""
    return full_volume if full() else budget


def samples(budget: int, full_volume: int) -> range:
    """The sample numbers of a test (its parameters, the same at every commit)."""
    return range(count(budget, full_volume))


def index(sample: int) -> int:
    """The random match index that sample number ``sample`` plays."""
    return start_seed() + sample


def chunk(number: int, size: int) -> range:
    """The match indexes of chunk ``number`` of ``size`` samples."""
    return range(index(number * size), index((number + 1) * size))


def header() -> str:
    """The run's header line: the start seed, where it came from, and the volume."""
    source = (f"{SEED}" if os.environ.get(SEED)
              else f"commit {commit()[:12]}" if commit() else "no git checkout")
    volume = "full volume (make sample-all)" if full() else "budgeted counts"
    return f"sampling: start seed {start_seed()} (from {source}), {volume}"


def replay_command(nodeid: str) -> str:
    """The one command that replays a failed sample exactly."""
    return f"{SEED}={start_seed()} .venv/bin/python -m pytest '{nodeid}'"
