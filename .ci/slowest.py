"""Print the slowest tests of the JUnit XML reports named on the command line (CI's list)."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ElementTree

COUNT = 30


def timings(paths: list[str]) -> list[tuple[float, str]]:
    """Every test case's time and id, from every report that exists."""
    found = []
    for path in paths:
        try:
            tree = ElementTree.parse(path)
        except (OSError, ElementTree.ParseError):
            continue
        for case in tree.iter("testcase"):
            test_id = f"{case.get('classname')}::{case.get('name')}"
            found.append((float(case.get("time") or 0), test_id))
    return found


def main() -> None:
    """Print the COUNT slowest, slowest first, and the total."""
    found = sorted(timings(sys.argv[1:]), reverse=True)
    print(f"The {COUNT} slowest of {len(found)} tests ({sum(t for t, _ in found):.0f} s in all):")
    for seconds, test_id in found[:COUNT]:
        print(f"{seconds:8.1f} s  {test_id}")


if __name__ == "__main__":
    main()
