"""The export format's documentation: the committed JSON Schema and the example both hold."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from projections.export import FORMAT_VERSION, decode_export, encode_export, schema_text
from projections.verify import verify
from tests.replay.random_matches import exported, play

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_committed_schema_is_the_one_generated_from_the_structs():
    """Given the Structs, then docs/export-format.schema.json equals their schema (regenerate
    with `python -m projections.export > docs/export-format.schema.json`)."""
    assert (DOCS / "export-format.schema.json").read_text() == schema_text()


def test_the_documented_example_decodes_and_verifies():
    """Given the example in docs/export-format.md, then it is a version-2 export that verifies."""
    text = (DOCS / "export-format.md").read_text().split("## Example", 1)[1]
    example = re.search(r"```json\n(.*?)```", text, re.DOTALL).group(1)

    document = decode_export(example)

    assert document.header.format_version == FORMAT_VERSION == 2
    assert verify(document).ok


def test_an_exported_event_embeds_the_hashed_bytes_verbatim():
    """Given a match's export, then each event's data is the stored bytes, byte for byte, as a
    JSON string, and reads back as those bytes."""
    played = play(11)

    text = encode_export(exported(played))

    for event in played.events:
        assert b'"data":' + msgspec.json.encode(event.data.decode()) + b',"metadata"' in text
    assert [bytes(e.data) for e in decode_export(text).events] == [e.data for e in played.events]
    assert msgspec.json.decode(text)["header"]["head_hash"] == played.events[-1].hash.hex()
