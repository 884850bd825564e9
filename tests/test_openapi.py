"""The committed OpenAPI document is the app's, and documents every route fully."""

import json

from service.cli import OPENAPI_PATH, openapi_text


def test_the_committed_openapi_document_matches_the_app():
    """Given the app, when its document is generated, then it equals openapi/openapi.json
    (run `make openapi` after changing the API)."""
    assert OPENAPI_PATH.read_text() == openapi_text() + "\n"


def test_every_operation_has_an_id_a_summary_and_documented_answers():
    """Given the document, then every operation names itself and documents its answers."""
    document = json.loads(openapi_text())
    operations = [op for path in document["paths"].values() for op in path.values()]
    assert len(operations) >= 12
    for operation in operations:
        assert operation["operationId"][0].islower()
        assert operation.get("summary")
        assert any(code.startswith("2") for code in operation["responses"])


def test_request_bodies_have_schemas_and_examples():
    """Given the document, then creating a match and sending a command show examples."""
    text = openapi_text()
    assert '"wick-and-ember"' in text
    assert '"lamp_warden"' in text
