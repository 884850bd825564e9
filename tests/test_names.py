"""Names and other text people see: what is refused, how a name is prepared, what a terminal
is shown (service/names.py)."""

from __future__ import annotations

import re

import msgspec
import pytest

from service.cli.play import render
from service.names import (
    SAFE_TEXT,
    VISIBLE_TEXT,
    Refused,
    likeness,
    look_alike,
    nickname,
    person_text,
    shown,
)
from service.schemas import CreateMatch, JoinSeat, person_fields
from service.tournament.schemas import CreateTournament, Register


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


# Names a person cannot see or tell apart, each refused by the one rule (issue #34, defects 3, 8).
INVISIBLE = {
    "a tag (U+E0041)": "Ash\U000e0041",
    "the tag that begins a tag sequence (U+E0001)": "\U000e0001Ash",
    "a musical format character (U+1D173)": "Ash\U0001d173",
    "private use, plane 15": "Ash\U000f0000",
    "private use, plane 16": "Ash\U00100000",
    "a Hangul filler (U+3164)": "Ash\u3164",
    "the halfwidth Hangul filler (U+FFA0)": "\uffa0",
    "the braille blank (U+2800)": "Ash\u2800",
    "the combining grapheme joiner (U+034F)": "A\u034fsh",
    "a variation selector (U+FE0F)": "Ash\ufe0f",
    "a supplementary variation selector (U+E0100)": "Ash\U000e0100",
    "a zero-width space (U+200B)": "A\u200bsh",
    "an unassigned code point (U+0378)": "Ash\u0378",
}


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_a_name_holding_a_character_nobody_sees_is_refused_naming_it(name):
    """Given a name with an invisible or format character, in any plane, when it is decided,
    then it is refused with a message naming the character by its code point."""
    hidden = next(c for c in name if c not in "Ash")
    with pytest.raises(Refused, match=f"U\\+{ord(hidden):04X}"):
        person_text(name)


@pytest.mark.parametrize("name", ["   ", "\u3000", " \u00a0\u2003"])
def test_a_blank_name_is_refused(name):
    """Given a name of spaces alone (of any kind), then it is refused: it would be stored as ''."""
    with pytest.raises(Refused, match="blank"):
        person_text(name)


def test_a_name_that_grows_when_normalised_is_refused_not_stored_longer_than_checked():
    """Given U+FDFA twice (2 characters, 36 once NFKC), then it is refused as growing; a name
    that NFKC maps one to one (full-width letters) or shrinks (a decomposed letter) passes."""
    with pytest.raises(Refused, match="grows"):
        person_text("\ufdfa\ufdfa")
    assert person_text("\uff21sh") == "Ash" and person_text("Zoe\u0308") == "Zo\u00eb"
    with pytest.raises(Refused, match="at most 32"):
        person_text("\uff41" * 33)


def test_names_that_look_alike_are_one_name_at_a_table():
    """Given 'Ash' at a table, then 'ASH', 'Ash' with a Cyrillic A and a mathematical bold 'Ash'
    look like it; 'Ada' and 'Bryn' do not."""
    cyrillic, bold = "\u0410sh", "\U0001d400\U0001d42c\U0001d421"
    for alike in ("ASH", cyrillic, bold):
        assert look_alike(alike, ["Bryn", "Ash"]) == "Ash", alike
    assert look_alike("Ada", ["Ash", "Bryn"]) is None
    assert likeness(cyrillic) == likeness("ash")


@pytest.mark.parametrize("body", [JoinSeat, Register, CreateTournament, CreateMatch])
def test_every_body_with_a_name_decides_it_with_the_one_rule_as_it_is_decoded(body):
    """Given each request body that carries text others will see (a seat's name, an entrant's,
    a tournament's, a label), when it is decoded with a tag character in it, then the decoder
    refuses it naming the field; a plain name is kept as prepared."""
    fields = [field for field, _ in person_fields(body)]
    assert fields, body
    base = {"game": "wick-and-ember", "seats": 2, "table_size": 2, "format": "swiss",
            "name": "Ash"}
    keep = {key: value for key, value in base.items() if key in body.__struct_fields__}
    for field in fields:
        sent = {**keep, field: "Ash\U000e0041"}
        with pytest.raises(msgspec.ValidationError, match=f"the '{field}' field holds U\\+E0041"):
            msgspec.json.decode(msgspec.json.encode(sent), type=body)
        kept = msgspec.json.decode(msgspec.json.encode({**keep, field: "  Ash  "}), type=body)
        assert getattr(kept, field) == "Ash"


def test_a_capital_that_looks_like_a_latin_one_is_alike_before_it_is_folded():
    """Given "Bryn" and "Bryn" spelt with a Greek capital beta (which folds to a small beta, no
    longer like a b), then the two look alike."""
    assert likeness("\u0392ryn") == likeness("Bryn") == likeness("BRYN")


def test_the_documents_pattern_refuses_blank_text_too():
    """Given text that is empty or spaces alone, then the document's pattern refuses it, as the
    rule does; text with one visible character passes."""
    visible = re.compile(VISIBLE_TEXT)
    for blank in ["", " ", "   ", "\u3000", "\u00a0 "]:
        assert not visible.match(blank), repr(blank)
    assert visible.match(" a ") and not visible.match("a\u200bb")
