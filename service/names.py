"""Text a person types that others will see: a player's name, a label, a tournament.

Such text may hold no control, format or private-use character and no
line or paragraph separator (the schema's SAFE_TEXT pattern refuses them with 400): an escape
sequence would clear the screen of anyone running `hearthlog play` at the table, a newline
would forge a log line, a right-to-left override reverse it, a zero-width space make "Ash" and
"A\u200bsh" two names that look the same. A name is then prepared as RFC 8266's Nickname profile
says: every kind of space becomes a plain one, spaces are trimmed and collapsed, and the whole
is normalised to NFKC, so "Zoë" typed as one character or as two, or "Ash" in full-width letters, is
one name (the table already compares names case-insensitively).
"""

from __future__ import annotations

import re
import unicodedata

# Surrogates (Cs) need no place: JSON text holds none unpaired (the decoder refuses one), and a
# regex engine of the document's readers refuses them in a pattern.
UNSAFE_CATEGORIES = ("Cc", "Cf", "Co", "Zl", "Zp")


# The Basic Multilingual Plane only: a JSON Schema pattern (ECMA-262, as the document's readers
# and schemathesis take it) cannot name a character beyond it. What is left out is a few format
# characters (Egyptian, musical, shorthand formatting; tags) and the private-use planes 15-16.
_PLANES = (range(0x10000),)


def _ranges() -> str:
    """The unsafe characters as a regular-expression class body of ranges."""
    spans: list[list[int]] = []
    for code in (code for plane in _PLANES for code in plane):
        if unicodedata.category(chr(code)) in UNSAFE_CATEGORIES:
            if spans and spans[-1][1] == code - 1:
                spans[-1][1] = code
            else:
                spans.append([code, code])
    return "".join(_span(first, last) for first, last in spans)


def _span(first: int, last: int) -> str:
    """One range of the class, in escapes both Python's and JSON Schema's regexes read."""
    def escape(code: int) -> str:
        return f"\\u{code:04x}"
    return escape(first) if first == last else f"{escape(first)}-{escape(last)}"


_UNSAFE = _ranges()
SAFE_TEXT = f"^[^{_UNSAFE}]*$"
_UNSAFE_CHARACTER = re.compile(f"[{_UNSAFE}]")
_SPACES = re.compile(r"\s+")


def nickname(name: str) -> str:
    """A name as RFC 8266 prepares a nickname: spaces mapped, trimmed, collapsed; NFKC."""
    return unicodedata.normalize("NFKC", _SPACES.sub(" ", name).strip())


def shown(text: str) -> str:
    """Text from a server, safe to print on a terminal: each unsafe character as its escape
    (a name stored before these rules, or from another server, cannot drive the terminal)."""
    return _UNSAFE_CHARACTER.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
