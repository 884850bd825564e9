"""Text a person types that others will see: a player's name, an entrant's, a label, a tournament's.

One rule for all of it, applied by ``person_text`` as the request body is decoded
(service.schemas.Body), so a name is refused (400) before anything is stored, never accepted
here and refused later at a table. It refuses:
- characters nobody sees or that act on the text around them, in every plane: controls, format
  characters (direction marks, zero-width spaces, tags U+E0000-E007F, the musical U+1D173-1D17A),
  private use (planes 15-16 too), unassigned code points, line and paragraph separators, and the
  default-ignorable letters and marks that render as nothing (Hangul fillers, U+034F, variation
  selectors such as U+FE0F, the braille blank U+2800): an escape sequence would clear the screen
  of anyone running `hearthlog play`, a newline forge a log line, and "Ash" with a tag or a
  variation selector would be a second "Ash" at the table;
- blank text (spaces alone), and text that grows when prepared (U+FDFA is one character and
  eighteen once normalised): what is stored is what was checked;
- text longer than its field allows once prepared.
What passes is prepared as RFC 8266's Nickname profile says: every kind of space becomes a plain
one, spaces are trimmed and collapsed, and the whole is NFKC, so "Zoë" typed as one character or
two, or "Ash" in full-width letters, is one name.

Two names are one at a table when their ``likeness`` is equal: case folded and each character
replaced by a representative of its Unicode confusables class (UTS #39's skeleton, with the
classes of the confusables data joined), so "Ash" with a Cyrillic A (U+0410) cannot sit beside
"Ash".

The schema's VISIBLE_TEXT pattern states the part of this rule a JSON Schema pattern can say
(the Basic Multilingual Plane's unsafe categories, and not blank); the document says the server
refuses more.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from importlib import resources

# Surrogates (Cs) need no place: JSON text holds none unpaired (the decoder refuses one), and a
# regex engine of the document's readers refuses them in a pattern.
UNSAFE_CATEGORIES = ("Cc", "Cf", "Co", "Zl", "Zp")
# What the rule refuses by category, in every plane (unassigned code points included).
INVISIBLE_CATEGORIES = frozenset((*UNSAFE_CATEGORIES, "Cs", "Cn"))
# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties) outside those categories:
# letters and marks that render as nothing; and the braille blank, a symbol that shows nothing.
BLANK_RANGES = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
                (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0),
                (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


class Refused(ValueError):
    """Text the rule refuses; the message says which character or what is wrong, in words."""


def person_text(text: str, *, what: str = "the name", most: int = 32) -> str:
    """The text prepared as a nickname, or Refused naming what a person could not see or tell."""
    for character in text:
        if invisible(character):
            raise Refused(f"{what} holds {described(character)}, which others would not see as "
                          "typed; use letters, digits, punctuation, symbols and plain spaces")
    prepared = nickname(text)
    if not prepared:
        raise Refused(f"{what} is blank: give at least one visible character")
    if len(prepared) > len(_SPACES.sub(" ", text).strip()):
        raise Refused(f"{what} grows when normalised ({len(text)} characters become "
                      f"{len(prepared)}: {prepared!r}); type it as it should read")
    if len(prepared) > most:
        raise Refused(f"{what} is {len(prepared)} characters once normalised; at most {most}")
    return prepared


def invisible(character: str) -> bool:
    """Whether the character is one a person cannot see (or that acts on its neighbours)."""
    code = ord(character)
    if unicodedata.category(character) in INVISIBLE_CATEGORIES:
        return True
    return any(first <= code <= last for first, last in BLANK_RANGES)


def described(character: str) -> str:
    """A character as U+XXXX and its Unicode name, for a message."""
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" ({name})" if name else "")


def likeness(name: str) -> str:
    """What a name looks like: its skeleton (UTS #39), case folded, and the skeleton of that
    (a Greek capital beta is a B before it is folded to a beta); two alike cannot share a table."""
    return _skeleton(_skeleton(nickname(name)).casefold())


def _skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character its confusables class's representative, NFD."""
    classes = _classes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(classes.get(c, c) for c in decomposed))


def look_alike(name: str, taken: list[str]) -> str | None:
    """The first of ``taken`` that looks like ``name``, if any."""
    seen = likeness(name)
    return next((other for other in taken if likeness(other) == seen), None)


@functools.cache
def _classes() -> dict[str, str]:
    """Each confusable character's class representative, from the confusables data that the
    confusable-homoglyphs package ships (Unicode's confusables.txt, classes joined)."""
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text()
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for key, glyphs in json.loads(data).items():
        for glyph in glyphs:
            other = glyph["c"].strip("\u200e\u200f")
            if len(key) == 1 and len(other) == 1:
                first, second = sorted((root(key), root(other)))
                parent[second] = first
    return {c: root(c) for c in parent}


# The Basic Multilingual Plane only: a JSON Schema pattern (ECMA-262, as the document's readers
# and schemathesis take it) cannot name a character beyond it. person_text refuses the rest.
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
# And not blank: at least one character that is not a space (a lookahead, in both dialects).
VISIBLE_TEXT = f"^(?=[\\s\\S]*\\S)[^{_UNSAFE}]*$"
_UNSAFE_CHARACTER = re.compile(f"[{_UNSAFE}]")
_SPACES = re.compile(r"\s+")


def nickname(name: str) -> str:
    """A name as RFC 8266 prepares a nickname: spaces mapped, trimmed, collapsed; NFKC."""
    return unicodedata.normalize("NFKC", _SPACES.sub(" ", name).strip())


def shown(text: str) -> str:
    """Text from a server, safe to print on a terminal: each unsafe character as its escape
    (a name stored before these rules, or from another server, cannot drive the terminal)."""
    return _UNSAFE_CHARACTER.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
