"""Run every benchmark of docs/benchmarks.md in turn, each in its own process, then the report.

Bounded: each benchmark has a time limit (the whole run takes about 14 minutes on the 2-core
machine) and starts and stops its own Postgres and servers on 127.0.0.1. `make bench` runs it:

    PYTHONPATH=. python -m bench.run [--skip http,...]
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from bench import report

BENCHES = {
    "appends": ["--seconds", "3", "--warmup", "1", "--rounds", "3"],
    "http": ["--seconds", "5", "--warmup", "1", "--rounds", "5"],
    "verification": ["--matches", "400", "--rounds", "3"],
    "cold_start": ["--samples", "150", "--repeats", "7"],
    "fanout": ["--appends", "40", "--spectators", "100", "--rounds", "3"],
    "replication": ["--seconds", "3", "--warmup", "1", "--rounds", "5"],
}
LIMIT_SECONDS = 420


def main() -> None:
    """Each benchmark, then the tables in docs/benchmarks.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip", default="", help="benchmarks not to run, comma-separated")
    skipped = set(parser.parse_args().skip.split(","))
    for name, args in BENCHES.items():
        if name in skipped:
            continue
        print(f"== {name}", flush=True)
        subprocess.run([sys.executable, "-m", f"bench.{name}", *args], check=True,
                       timeout=LIMIT_SECONDS)
    report.main()


if __name__ == "__main__":
    main()
