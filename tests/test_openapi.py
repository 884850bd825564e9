"""The committed OpenAPI document is the app's, and documents every route fully."""

import json

from domain.core.contract import members, tag
from domain.games import GAMES
from service.cli.main import OPENAPI_PATH, openapi_text


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


def test_the_document_lists_each_games_commands_as_a_union_tagged_by_type():
    """Given the document, then every game has a command union whose tags name its members, and
    a sent command (and a legal action) is any of those unions."""
    schemas = json.loads(openapi_text())["components"]["schemas"]
    unions = {"wick-and-ember": "WickAndEmberCommand", "whiteout-road": "WhiteoutRoadCommand",
              "deathwick": "DeathwickCommand", "ember": "EmberCommand"}
    for game_id, name in unions.items():
        book = GAMES[game_id]
        mapping = schemas[name]["discriminator"]["mapping"]
        assert set(mapping) == {tag(member) for member in members(book.Command)}
        for ref in mapping.values():
            assert ref.removeprefix("#/components/schemas/") in schemas
    for holder in ("SendCommand", "LegalAction"):
        refs = {choice["$ref"] for choice in schemas[holder]["properties"]["command"]["anyOf"]}
        assert refs == {f"#/components/schemas/{name}" for name in unions.values()}


def test_no_two_components_share_a_title():
    """Given the document, then each component's title is its own (a generator names its classes
    by title and drops the second one of a name)."""
    schemas = json.loads(openapi_text())["components"]["schemas"]
    titles = [schema.get("title", name) for name, schema in schemas.items()]
    assert sorted(titles) == sorted(set(titles))


def test_no_answer_is_typed_by_litestars_default_validation_error():
    """Given the document, then every error answer is our ErrorBody (litestar's default 400 types
    `extra` as null, object or array at once, which generators cannot read)."""
    document = json.loads(openapi_text())
    for path in document["paths"].values():
        for operation in path.values():
            for code, answer in operation["responses"].items():
                if code.startswith(("4", "5")):
                    schema = answer["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (code, operation)


def test_the_document_says_what_the_server_checks_minimums_optional_stream_token_and_join():
    """Given the document, then a command's expected_version and a past view's ?seat keep their
    minimum of 0 (litestar dropped it under `| None`), the stream (which serves spectators) takes
    a token optionally, and joining needs a name or a bot unless a player's token is sent (the
    server refuses `{}` without one: the body alone cannot say so)."""
    document = json.loads(openapi_text())
    schemas, paths = document["components"]["schemas"], document["paths"]
    expected = schemas["SendCommand"]["properties"]["expected_version"]["oneOf"]
    assert {"type": "integer", "minimum": 0} in expected
    past = paths["/matches/{match_id}/replay/{version}"]["get"]["parameters"]
    seat = next(p for p in past if p["name"] == "seat")["schema"]["oneOf"]
    assert {"type": "integer", "minimum": 0} in seat
    assert paths["/matches/{match_id}/stream"]["get"]["security"] == [
        {}, {"BearerToken": []}, {"AppKey": []}, {"BearerToken": [], "AppKey": []}]
    join = schemas["JoinSeat"]
    seats = paths["/matches/{match_id}/seats"]["post"]
    assert "if" not in join and "player's token" in seats["description"]
    assert {} in seats["security"] and {"BearerToken": []} in seats["security"]
