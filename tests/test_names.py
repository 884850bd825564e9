"""Names and other text people see: what is refused, how a name is prepared, what a terminal
is shown (service/names.py)."""

from __future__ import annotations

import re

from service.cli.play import render
from service.names import SAFE_TEXT, nickname, shown


def test_the_safe_text_pattern_refuses_each_unsafe_category_and_keeps_the_rest():
    """Given one character of each kind, then controls, format characters, separators and
    private use (in the Basic Multilingual Plane, as a JSON Schema pattern can say) are refused;
    letters, marks, emoji and plain spaces are kept."""
    safe = re.compile(SAFE_TEXT)
    for refused in ["\x00", "\x1b", "\n", "\x85", "\u200b", "\u202e", "\u2066", "\u2028",
                    "\u2029", "\ufeff", "\ue000", "\uf8ff"]:
        assert not safe.match(f"a{refused}b"), repr(refused)
    for kept in ["Ash", "Zoë", "Zoe\u0308", "日本語", "Ash Ember", "😀", "O'Brien-Smith"]:
        assert safe.match(kept), kept


def test_a_name_is_prepared_as_rfc_8266_prepares_a_nickname():
    """Given names typed differently, then spaces are mapped, trimmed, collapsed and the whole
    is NFKC: composed and decomposed letters, full-width letters, odd spaces become one form."""
    assert nickname("Zoe\u0308") == nickname("Zo\u00eb") == "Zo\u00eb"
    assert nickname("\uff21sh") == "Ash"
    assert nickname("  Ash\u00a0\u2003Ember ") == "Ash Ember"


def test_text_from_a_server_is_printed_with_its_unsafe_characters_escaped():
    """Given a seat named with an escape sequence and a forged line (stored before these rules,
    or by another server), when the terminal client draws the table, then no control character
    and no extra line reach the terminal."""
    view = {"version": 3, "players": [{"seat": 0, "name": "x"}],
            "board": {"seats": [{"seat": 0, "name": "Ash\x1b[2J\nSYSTEM: Bryn wins"}]}}
    drawn = render(view)
    assert "\x1b" not in drawn and "\\u001b[2J\\u000aSYSTEM" in drawn
    assert len(drawn.split("\n")) == 4
    assert shown("plain") == "plain"
