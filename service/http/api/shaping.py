"""The OpenAPI document as client generators read it with their default options.

Run over the finished document (service.http.app.create_app), after litestar has named every
component, so that openapi-python-client and openapi-typescript build clients without a warning
or an option (tests/api/test_generated_clients.py):

- **Answers are whole.** An answer's Struct is encoded with every field, defaults included, so
  every property of a component that only answers use is `required`: a generated type never
  makes a client check for a field that is always there (`to_act`, `practice`, `private`).
- **A request's defaults are the server's.** A field left out of a body takes its default on the
  server; openapi-typescript reads a schema `default` on a shared component as "always present"
  and would make the sender spell it out, so in request bodies and the commands they carry the
  default is said in words instead.
- **Each game's commands keep their own types.** Two games may share a command tag (Ember's
  `pass` and Deathwick's `pass` have one shape), so a union of every game's commands cannot tell
  them apart. The answers that offer commands (`LegalActions`, `StreamUpdate`, `CommandAnswer`)
  carry the match's `game`, and the document gives each one variant per game
  (`EmberLegalActions`, whose actions hold `EmberCommand`s), chosen by `game` (a discriminator):
  a generated client reads Ember's `pass` as Ember's `Pass`.
- **Streams say what they are.** A Server-Sent Events answer and an NDJSON answer are text, each
  event's `data` or each line one JSON value of the component its description names; an NDJSON
  answer is served as `text/plain` too, when asked for (a generator that knows no NDJSON reads
  it as text rather than dropping the route).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import msgspec
from litestar.openapi.spec import (
    Discriminator,
    OpenAPI,
    OpenAPIMediaType,
    OpenAPIResponse,
    Reference,
    Schema,
)
from litestar.openapi.spec.enums import OpenAPIType

from domain.games import BUILT_IN, GAMES
from service.http.api.documents import component_name

COMPONENTS = "#/components/schemas/"
NDJSON, TEXT, EVENTS = "application/x-ndjson", "text/plain", "text/event-stream"
PER_GAME = ("LegalActions", "StreamUpdate", "CommandAnswer")  # answers offering commands


def shape(document: OpenAPI) -> None:
    """Every change above, in place."""
    asked, answered = reachable(document, requests=True), reachable(document, requests=False)
    schemas = document.components.schemas or {}
    for name, schema in schemas.items():
        if name in asked:
            defaults_in_words(schema)
        elif name in answered and whole_answer(name):
            schema.required = sorted(schema.properties or {})
    for name in PER_GAME:
        per_game(schemas, name)
    for response in answers(document):
        described_stream(response)


def per_game(schemas: dict[str, Schema], answer: str) -> None:
    """The answer as one variant per built-in game, chosen by its `game`: each variant's
    actions hold that game's commands (`<Game>LegalAction`, whose command is `<Game>Command`)."""
    base = schemas[answer]
    variants: dict[str, str] = {}
    for game_id in BUILT_IN:
        union = component_name(GAMES[game_id])
        prefix = union.removesuffix("Command")
        action = f"{prefix}LegalAction"
        generic = schemas["LegalAction"]
        schemas[action] = dataclasses.replace(
            generic, title=action, description=f"{GAMES[game_id].title}: {generic.description}",
            properties={**(generic.properties or {}),
                        "command": Reference(ref=COMPONENTS + union)})
        listed = Schema(type=OpenAPIType.ARRAY, items=Reference(ref=COMPONENTS + action))
        properties = {**(base.properties or {}),
                      "game": Schema(type=OpenAPIType.STRING, const=game_id),
                      "actions": Schema(one_of=[listed, Schema(type=OpenAPIType.NULL)])
                      if answer == "StreamUpdate" else listed}
        name = f"{prefix}{answer}"
        schemas[name] = Schema(type=OpenAPIType.OBJECT, title=name, properties=properties,
                               required=sorted(properties), description=base.description)
        variants[game_id] = COMPONENTS + name
    schemas[answer] = Schema(
        title=answer, description=base.description,
        one_of=[Reference(ref=ref) for ref in variants.values()],
        discriminator=Discriminator(property_name="game", mapping=variants))


def reachable(document: OpenAPI, *, requests: bool) -> set[str]:
    """The components reached from the request bodies and parameters, or from the answers."""
    roots: list[Any] = []
    for item in (document.paths or {}).values():
        for operation in (getattr(item, verb) for verb in ("get", "post", "put", "delete")):
            if operation is None:
                continue
            if requests:
                roots += [operation.request_body, operation.parameters]
            else:
                roots.append(operation.responses)
    schemas = document.components.schemas or {}
    seen: set[str] = set()
    todo = [name for root in roots for name in refs(root)]
    while todo:
        name = todo.pop()
        if name not in seen and name in schemas:
            seen.add(name)
            todo += refs(schemas[name])
    return seen


def refs(node: Any) -> Iterator[str]:
    """The component names a part of the document refers to, at any depth."""
    if isinstance(node, Reference):
        if node.ref.startswith(COMPONENTS):
            yield node.ref.removeprefix(COMPONENTS)
    elif isinstance(node, dict):
        for value in node.values():
            yield from refs(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from refs(value)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for field in dataclasses.fields(node):
            yield from refs(getattr(node, field.name))


def defaults_in_words(schema: Schema) -> None:
    """Each property's default moved into its description ("Left out: false")."""
    for prop in (schema.properties or {}).values():
        if isinstance(prop, Schema) and prop.default is not None:
            said = f"Left out: {json.dumps(prop.default)}."
            prop.description = f"{prop.description} {said}" if prop.description else said
            prop.default = None


def whole_answer(name: str) -> bool:
    """Whether the Struct of that name is encoded with all its fields (it omits no default)."""
    found = [s for s in structs() if s.__name__ == name]
    return len(found) == 1 and not found[0].__struct_config__.omit_defaults


def structs(base: type = msgspec.Struct) -> Iterator[type[msgspec.Struct]]:
    """Every Struct class defined so far."""
    sub: type[msgspec.Struct]
    for sub in base.__subclasses__():
        yield sub
        yield from structs(sub)


def answers(document: OpenAPI) -> Iterator[OpenAPIResponse]:
    """Every answer of every operation."""
    for item in (document.paths or {}).values():
        for operation in (getattr(item, verb) for verb in ("get", "post", "put", "delete")):
            for response in ((operation.responses or {}).values() if operation else ()):
                if isinstance(response, OpenAPIResponse):
                    yield response


def described_stream(response: OpenAPIResponse) -> None:
    """An SSE or NDJSON answer as text whose events or lines are the named component."""
    content = response.content or {}
    for media in (EVENTS, NDJSON):
        if media not in content:
            continue
        unit = ("each event's `data` is one StreamUpdate (components/schemas/StreamUpdate)"
                if media == EVENTS else "each line is one JSON value, as the answer says")
        text = Schema(type=OpenAPIType.STRING, content_media_type=media,
                      description=f"{media} text: {unit}")
        content[media] = OpenAPIMediaType(schema=text)
        if media == NDJSON:
            content[TEXT] = OpenAPIMediaType(schema=Schema(
                type=OpenAPIType.STRING, content_media_type=NDJSON,
                description="The same NDJSON lines, served as text/plain when Accept asks"))


def lines_media(accept: str | None) -> str:
    """The media type of an NDJSON answer: text/plain when the Accept header asks for it rather
    than NDJSON (the same bytes), else NDJSON."""
    wanted = [part.split(";")[0].strip().lower() for part in (accept or "").split(",")]
    return TEXT if TEXT in wanted and NDJSON not in wanted else NDJSON
