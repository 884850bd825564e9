"""Benchmark: a tournament bundle verified line by line, against verifying its matches alone.

A Swiss tournament of ``--entrants`` entrants is played with the domain (tests/tournament/
bundles.py: real Wick & Ember matches, random legal plays) over R and 2R rounds, and each bundle
is written to a file. Timed, in one process (CPU time, best of ``--repeats``): the baseline,
reading the file and running ``projections.verify.verify`` on each match line (what verifying
the matches alone costs), against ``verify_bundle`` on the same file (every match, plus each
round re-derived by pair_round and the standings recomputed). Reported: the ratio of the two.
Memory: the peak traced allocation (tracemalloc) of verify_bundle on the R-round bundle against
the 2R-round one (flat when only results are kept), and against verifying the largest single
match. Run:

    PYTHONPATH=. python -m bench.tournament_verify [--entrants 64] [--rounds 6]
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import common
from domain.tournament import Settings
from projections.tournament import MatchLine, decode_line, verify_bundle
from projections.verify import verify
from tests.tournament.bundles import OPTIONS, bundle, entrants


def written(folder: Path, count: int, rounds: int) -> Path:
    """A Swiss bundle of ``count`` entrants over ``rounds`` rounds, written to a file."""
    rules = Settings(game="wick-and-ember", rules_version="1", options=OPTIONS, table_size=2,
                     format="swiss", rounds=rounds)
    path = folder / f"swiss-{count}-{rounds}.ndjson"
    path.write_bytes(b"".join(bundle(rules, entrants(count), hashlib.sha256(b"bench").digest())))
    return path


def matches_alone(path: Path) -> Any:
    """The baseline: each match line decoded and verified on its own."""
    with path.open("rb") as lines:
        for raw in lines:
            line = decode_line(raw)
            if isinstance(line, MatchLine):
                assert verify(line.export).ok
    return None


def whole_bundle(path: Path) -> Any:
    """The bundle verified as a tournament, read a line at a time."""
    with path.open("rb") as lines:
        report = verify_bundle(lines)
    assert report.ok, report.problem
    return report


def cpu(work: Callable[[], Any], repeats: int) -> float:
    """The best CPU time of ``repeats`` runs."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def peak(work: Callable[[], Any]) -> int:
    """The peak traced allocation of one run, in bytes."""
    tracemalloc.start()
    work()
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


def largest_match(path: Path) -> Callable[[], Any]:
    """Verifying the largest match line of a bundle alone."""
    with path.open("rb") as lines:
        biggest = max((raw for raw in lines if raw.startswith(b'{"kind":"match"')), key=len)
    return lambda: verify(decode_line(biggest).export)


def run(count: int, rounds: int, repeats: int) -> dict[str, Any]:
    """Every measurement of the benchmark."""
    with tempfile.TemporaryDirectory() as folder:
        short, long = written(Path(folder), count, rounds), written(Path(folder), count, 2 * rounds)
        alone = cpu(lambda: matches_alone(long), repeats)
        tournament = cpu(lambda: whole_bundle(long), repeats)
        memory = {"short": peak(lambda: whole_bundle(short)),
                  "long": peak(lambda: whole_bundle(long)),
                  "one_match": peak(largest_match(long))}
        sizes = {"short": short.stat().st_size, "long": long.stat().st_size}
    return {
        "entrants": count, "rounds": [rounds, 2 * rounds], "bytes": sizes,
        "cpu_seconds": {"matches_alone": round(alone, 3), "verify_bundle": round(tournament, 3)},
        "time_ratio_bundle_over_matches": round(tournament / alone, 3),
        "peak_bytes": memory,
        "peak_ratio_long_over_short": round(memory["long"] / memory["short"], 3),
        "peak_ratio_bundle_over_one_match": round(memory["long"] / memory["one_match"], 3),
    }


def main() -> None:
    """Parse the arguments, run, print and save the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    path = common.run_and_save("tournament_verify",
                               lambda: run(args.entrants, args.rounds, args.repeats))
    print(path.read_text())


if __name__ == "__main__":
    main()
