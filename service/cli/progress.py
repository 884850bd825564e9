"""A one-line progress bar for long commands (export, verify), counting matches.

Hand-written rather than tqdm: a few lines, no dependency, and nothing drawn into logs: the bar
is drawn only when its stream is a terminal, and at most 10 times a second whatever the caller
does (advances and report lines in between included).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

INTERVAL = 0.1  # seconds between two draws at least: 10 a second at most


class Progress:
    """A bar on ``stream`` (stderr), off unless it is a terminal; ``clock`` is injectable."""

    def __init__(self, label: str, unit: str, total: int | None = None, *,
                 stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.unit, self.total, self.done = label, unit, total, 0
        self.stream = stream or sys.stderr
        self.clock, self.draws, self.visible = clock, 0, False
        self.shown: float | None = None  # when the bar was last drawn
        self.enabled = self.stream.isatty()

    def advance(self, step: int = 1) -> None:
        """Count ``step`` more units, redrawing when the last draw is old enough."""
        self.done += step
        if self.enabled and (self.shown is None or self.clock() - self.shown >= INTERVAL):
            self.draw()

    def draw(self) -> None:
        """Redraw the line."""
        self.shown, self.draws, self.visible = self.clock(), self.draws + 1, True
        if self.total:
            filled = min(30, 30 * self.done // self.total)
            bar = f"[{'#' * filled}{'.' * (30 - filled)}] {100 * self.done // self.total:3d}% "
            count = f"{self.done:,} of {self.total:,} {self.unit}"
        else:
            bar, count = "", f"{self.done:,} {self.unit}"
        self.stream.write(f"\r\033[K{self.label} {bar}{count}")
        self.stream.flush()

    def clear(self) -> None:
        """Wipe the line so a report can be printed there; the bar comes back at the next
        advance that the rate allows."""
        if self.visible:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.visible = False

    def close(self) -> None:
        """Draw the final count and end the line."""
        if self.enabled:
            self.draw()
            self.stream.write("\n")
            self.stream.flush()
