"""Reading a server's output: its access lines, and a check that no secret ever reached it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from domain.wick_ember import cards

ACCESS_FIELDS = {"method", "path", "status", "duration_ms", "match", "seat", "read"}
READS = {None, "primary", "standby"}  # which database served a routed read (service.reads)
REQUIRED_FIELDS = {"method", "path", "status", "duration_ms"}
CARD_WORDS = sorted({*cards.TITLES, *cards.TITLES.values()})


def access_lines(output: Path) -> list[dict[str, Any]]:
    """Every access-log line a server wrote (one JSON object per request)."""
    lines = []
    # split("\n"), not splitlines(): a logged path may hold \x85 or \u2028, which JSON keeps.
    for raw in output.read_text(errors="replace").split("\n"):
        if raw.startswith("{"):
            lines.append(json.loads(raw))
    return lines


def log_problems(output: Path, secrets: list[str], cards_too: bool = True) -> list[str]:
    """What is wrong with a server's output: a malformed access line, or a secret in it."""
    text = output.read_text(errors="replace")
    found = [f"access line with fields {sorted(line)}" for line in access_lines(output)
             if not REQUIRED_FIELDS <= set(line) <= ACCESS_FIELDS or line.get("read") not in READS]
    found += [f"a secret ({secret[:6]}...) is in the server's output"
              for secret in secrets if secret and secret in text]
    if cards_too:
        found += [f"the card {word!r} is in the server's output"
                  for word in CARD_WORDS if word in text]
    return found
