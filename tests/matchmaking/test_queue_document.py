"""The committed document says what the queue's decoder does (service/http/api/documents.py)."""

from __future__ import annotations

import json

from service.cli.main import OPENAPI_PATH


def schemas() -> dict[str, dict[str, object]]:
    """The committed document's component schemas."""
    found: dict[str, dict[str, object]] = json.loads(OPENAPI_PATH.read_text())["components"]["schemas"]
    return found


def test_a_table_size_given_as_a_number_keeps_its_range_in_the_union_with_a_seat_range() -> None:
    seats = schemas()["JoinQueue"]["properties"]["seats"]  # type: ignore[index]
    assert {"type": "integer", "minimum": 1, "maximum": 64} in seats["oneOf"]


def test_a_seat_range_refuses_fields_it_does_not_name_as_the_decoder_does() -> None:
    assert schemas()["SeatRange"]["additionalProperties"] is False
