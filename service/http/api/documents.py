"""The OpenAPI document's typed commands (each game's command union as a component of its own),
and the request bodies described as the decoder reads them.

A command travels as a JSON object (service.schemas.GameCommand) because only the match's game can
decode it: two games may use the same tag. This plugin documents that field as "one of the
games' unions", each union a component (``WickAndEmberCommand``) tagged by ``type``, built by
litestar from the games' own Structs, so a generated client gets one class per command.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar.openapi.spec import Discriminator, OpenAPI, Reference, Schema
from litestar.openapi.spec.enums import OpenAPIType
from litestar.params import KwargDefinition
from litestar.plugins import OpenAPISchemaPlugin
from litestar.typing import FieldDefinition

from domain.core.contract import members, tag
from domain.core.decider import Game
from domain.games import BUILT_IN, GAMES
from service.schemas import GAME_COMMAND, Body


def component_name(book: Game) -> str:
    """A game's command union in the document: 'wick-and-ember' -> 'WickAndEmberCommand'."""
    return "".join(word.capitalize() for word in book.id.split("-")) + "Command"


class TypedCommands(OpenAPISchemaPlugin):
    """Documents every GameCommand field as any of the games' command unions (latest rules)."""

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        """Only the command fields of service.schemas (marked GAME_COMMAND)."""
        return GAME_COMMAND in field_definition.metadata

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: Any) -> Schema:
        """Any of the release's games' unions (domain.games.BUILT_IN, so a test or extra game
        does not change the committed document): the match's game decides which applies."""
        unions = [game_union(GAMES[game_id], schema_creator) for game_id in BUILT_IN]
        return Schema(
            any_of=unions,
            description="A command of the match's game: one of that game's commands "
            "(GET /games/{game} has its JSON Schema)",
        )


def game_union(book: Game, creator: Any) -> Reference:
    """A reference to the game's command union, registered once as a component."""
    key = FieldDefinition.from_annotation(
        Annotated[book.Command, KwargDefinition(schema_component_key=component_name(book))]
    )
    registry = creator.schema_registry
    reference = registry.get_reference_for_field_definition(key)
    if reference is not None:
        return reference
    schema = registry.get_schema_for_field_definition(key)
    choices = [creator.for_field_definition(FieldDefinition.from_annotation(t))
               for t in members(book.Command)]
    schema.title = component_name(book)
    schema.description = f"A command of {book.title} (rules version {book.rules_version})"
    schema.one_of = choices
    tags = [tag(t) or "" for t in members(book.Command)]
    schema.discriminator = Discriminator(property_name="type", mapping=dict.fromkeys(tags, ""))
    return registry.get_reference_for_field_definition(key)


def map_discriminators(document: OpenAPI) -> None:
    """Point each command union's tags at its members' final component names.

    litestar names components only once the whole document is built, so a union's mapping is
    filled from its own references then, in member order.
    """
    for schema in (document.components.schemas or {}).values():
        if schema.discriminator is None or not schema.one_of:
            continue
        refs = [choice.ref for choice in schema.one_of if isinstance(choice, Reference)]
        tags = list(schema.discriminator.mapping or {})
        schema.discriminator.mapping = dict(zip(tags, refs, strict=True))


def closed_commands(document: OpenAPI) -> None:
    """Say in the document that a command takes no field its type does not name, as the decoder
    does (service.matches.decode_command: 400 naming the field): each member of every game's
    command union is written with ``additionalProperties: false``."""
    schemas = document.components.schemas or {}
    for game_id in BUILT_IN:
        union = schemas.get(component_name(GAMES[game_id]))
        for choice in (union.one_of or []) if union is not None else []:
            if isinstance(choice, Reference):
                member = schemas[choice.ref.rsplit("/", 1)[-1]]
                member.additional_properties = False


NOT_NULL = Schema(schema_not=Schema(type=OpenAPIType.NULL))
# msgspec's names of the constraints litestar drops from a nullable field, and litestar's.
CONSTRAINTS = {"minimum": "minimum", "maximum": "maximum", "exclusiveMinimum": "exclusive_minimum",
               "exclusiveMaximum": "exclusive_maximum", "minLength": "min_length",
               "maxLength": "max_length", "pattern": "pattern"}


def described_bodies(document: OpenAPI) -> None:
    """Say in the document what the decoder (msgspec, service.http.api.common.strictly) does: a body
    refuses unknown fields, needs one of its ``one_of`` fields, and a nullable field keeps its
    constraints (litestar drops a ``minimum`` under ``X | None``: taken from msgspec's schema)."""
    bodies = {body.__name__: body for body in Body.__subclasses__()}
    for name, schema in (document.components.schemas or {}).items():
        body = bodies.get(name)
        if body is None:
            continue
        schema.additional_properties = False
        if body.one_of:
            needs = needs_one_of(body.one_of)
            schema.schema_if, schema.schema_else = needs.schema_if, needs.schema_else
        own = msgspec.json.schema(body)["$defs"][name]["properties"]
        for field, prop in (schema.properties or {}).items():
            if isinstance(prop, Schema):
                keep_constraints(prop, own.get(field, {}))


def needs_one_of(fields: tuple[str, ...]) -> Schema:
    """If the first field is given (not null), nothing more; else one of the rest. Written as
    if / else rather than anyOf, which client generators read as a union of two models."""
    given = Schema(required=[fields[0]], properties={fields[0]: NOT_NULL})
    if len(fields) == 1:
        return given
    return Schema(schema_if=given, schema_else=needs_one_of(fields[1:]))


def keep_constraints(prop: Schema, own: dict[str, Any]) -> None:
    """Copy onto each typed branch of a union property (a nullable one, or a number or an
    object) the constraints msgspec states for the branch of that type."""
    for branch in own.get("anyOf", []):
        kind = branch.get("type")
        targets = [b for b in prop.one_of or [] if isinstance(b, Schema) and b.type == kind]
        if kind in (None, "null") or len(targets) != 1:
            continue
        for key, attribute in CONSTRAINTS.items():
            if key in branch and getattr(targets[0], attribute) is None:
                setattr(targets[0], attribute, branch[key])
