"""What a run reports beside pass and fail: the sampling seed, a failed sample's replay command,
and the reliability tests' figures, gathered from every worker process (hooks in conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import sampling

FIGURES = "figures"  # the user property a reliability test's figures travel in
FIGURES_FILE = Path(__file__).resolve().parents[1] / "build" / "reliability-figures.json"


def replay_section(item: pytest.Item, report: pytest.TestReport) -> None:
    """A failed sampling test's report names its seed and the command that replays it."""
    if report.failed and item.get_closest_marker("sampling") is not None:
        report.sections.append(("sampling", f"start seed {sampling.start_seed()}; replay "
                                            f"exactly this failure with:\n"
                                            f"    {sampling.replay_command(item.nodeid)}"))


def figures_of(report: pytest.TestReport) -> dict[str, Any] | None:
    """The figures a test's report carries, if any."""
    for name, value in report.user_properties:
        if name == FIGURES and value:
            return dict(value)
    return None


def write_figures(terminal: Any, gathered: dict[str, dict[str, Any]]) -> None:
    """Print the run's figures and keep them in build/ for docs/reliability.md."""
    if not gathered:
        return
    terminal.section("reliability figures")
    for name, numbers in sorted(gathered.items()):
        terminal.write_line(f"{name}: {json.dumps(numbers, sort_keys=True)}")
    FIGURES_FILE.parent.mkdir(exist_ok=True)
    kept = json.loads(FIGURES_FILE.read_text()) if FIGURES_FILE.exists() else {}
    FIGURES_FILE.write_text(json.dumps({**kept, **gathered}, indent=2, sort_keys=True) + "\n")
