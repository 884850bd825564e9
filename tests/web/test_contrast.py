"""Readable contrast: every pair of text and background colours the stylesheet uses keeps the
WCAG ratio of at least 4.5:1 (service/http/web/style.css's custom properties)."""

from __future__ import annotations

import re
from pathlib import Path

STYLE = Path(__file__).resolve().parents[2] / "service" / "http" / "web" / "style.css"
# (text, background) as the pages pair them: names of custom properties, or literal colours.
PAIRS = [
    ("ink", "bg"), ("ink", "panel"), ("muted", "bg"), ("muted", "panel"), ("accent", "bg"),
    ("accent-ink", "accent"), ("bad", "panel"), ("warn", "panel"), ("ok", "panel"),
    ("red", "#fffdf8"), ("muted", "#fff3d6"), ("ink", "#e3eefc"), ("#ffffff", "ink"),
    *((f"we-{rank}", "#fffdf8") for rank in range(1, 9)),
]


def colours() -> dict[str, str]:
    """The stylesheet's custom properties that are colours: name -> #rrggbb."""
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", STYLE.read_text()))


def luminance(colour: str) -> float:
    """The relative luminance of a #rrggbb colour (WCAG 2)."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ratio(text: str, background: str) -> float:
    """The contrast ratio of two colours."""
    light, dark = sorted((luminance(text), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_text_colour_keeps_a_contrast_of_at_least_4_5_to_its_background():
    """Given the stylesheet's colours, then each text colour on the background it is used on
    has a contrast ratio of at least 4.5:1 (WCAG AA for body text)."""
    named = colours()
    assert {"ink", "bg", "muted", "accent"} <= named.keys()
    low = {(t, b): round(ratio(named.get(t, t), named.get(b, b)), 2) for t, b in PAIRS}
    assert all(value >= 4.5 for value in low.values()), low
