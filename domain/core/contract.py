"""The game contract, checked when a rulebook registers: each broken convention named with its fix.

These are the conventions the rest of the house relies on without looking (the API's unions of
views, the match's own commands and events beside the game's, conceding, the fold's first step);
checking them here turns a failure far away into one message at import.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable
from typing import Any

import msgspec

from domain.core.bots import RANDOM
from domain.core.decider import Concede
from domain.core.match import MatchCommand, MatchEvent

GAME_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
RULES_VERSION = re.compile(r"^[1-9][0-9]*$")


class GameContractError(TypeError):
    """A rulebook that breaks the game contract; the message names the game and the fix."""


def members(union: Any) -> tuple[type, ...]:
    """The Struct types of a union (or the one type itself)."""
    args = typing.get_args(union)
    return tuple(args) if args else (union,)


def tag(struct: type) -> str | None:
    """A Struct type's string tag, or None when it is untagged."""
    config = getattr(struct, "__struct_config__", None)
    found = getattr(config, "tag", None)
    return found if isinstance(found, str) else None


def check_rulebook(book: Any, others: Iterable[Any] = ()) -> None:
    """Raise GameContractError for the first convention this rulebook breaks."""
    name = f"game {book.id!r} rules version {book.rules_version!r}"
    for problem in _problems(book, list(others)):
        raise GameContractError(f"{name}: {problem}")


def _problems(book: Any, others: list[Any]) -> list[str]:
    """Every broken convention of one rulebook, each with its fix."""
    return [
        *_identity(book),
        *_unions(book),
        *_view(book, others),
        *_initial(book),
        *_secrets(book),
        *_bots(book),
    ]


def _identity(book: Any) -> list[str]:
    """Id, rules version and seat range in the shapes the store and the API expect."""
    found = []
    if not GAME_ID.match(book.id):
        found.append("the id must be lower-case words joined by '-', like 'wick-and-ember'")
    if not RULES_VERSION.match(book.rules_version):
        found.append("the rules version must be a whole number from 1, written as a string: '1'")
    if not 1 <= book.min_seats <= book.max_seats:
        found.append(f"the seat range {book.min_seats} to {book.max_seats} is empty or below 1")
    if not (isinstance(book.Options, type) and issubclass(book.Options, msgspec.Struct)):
        found.append("Options must be a msgspec Struct type (use an empty Struct for none)")
    return found


def _unions(book: Any) -> list[str]:
    """Commands and events: tagged frozen Structs, Concede among the commands, no clash of tags."""
    found = []
    commands, events = members(book.Command), members(book.Event)
    if Concede not in commands:
        found.append("its Command union must include domain.core.decider.Concede")
    for kind, types, theirs in (
        ("command", commands, members(MatchCommand)),
        ("event", events, members(MatchEvent)),
    ):
        found += _tagged(kind, types)
        mine = {named for named in map(tag, types) if named is not None}
        reserved = {named for named in map(tag, theirs) if named is not None}
        for clash in sorted(mine & reserved):
            found.append(f"the {kind} tag {clash!r} is the match's own; rename the game's {kind}")
        tags = [tag(t) for t in types]
        for twice in sorted({t for t in tags if t is not None and tags.count(t) > 1}):
            found.append(f"two {kind}s share the tag {twice!r}; give each its own")
    return found


def _tagged(kind: str, types: tuple[type, ...]) -> list[str]:
    """Each member a tagged, frozen Struct (stored forever, decoded by its tag)."""
    found = []
    for member in types:
        config = getattr(member, "__struct_config__", None)
        if config is None:
            found.append(f"the {kind} {member!r} is not a msgspec Struct")
        elif tag(member) is None or not config.frozen:
            found.append(
                f"the {kind} {member.__name__} must be declared "
                f"`class {member.__name__}(msgspec.Struct, tag=\"...\", frozen=True, kw_only=True)`"
            )
    return found


def _view(book: Any, others: list[Any]) -> list[str]:
    """A tagged View (the API serves one union of every game's views) that no other game's uses."""
    if tag(book.View) is None:
        return [
            f"its View {book.View.__name__} must be a tagged Struct "
            f"(tag=\"{book.id.replace('-', '_')}_view\"): the API's board is a union of views"
        ]
    for other in others:
        if other.View is not book.View and tag(other.View) == tag(book.View):
            return [f"its View tag {tag(book.View)!r} is {other.id!r}'s too; choose another"]
    return []


def _initial(book: Any) -> list[str]:
    """The state before the first event is a value of its own, not None."""
    if book.initial is None or not isinstance(book.initial, msgspec.Struct):
        return ["its initial state must be a Struct of its own (the state before the deal)"]
    return []


def _secrets(book: Any) -> list[str]:
    """Every game states what each seat may not see (the conformance suite's leak check)."""
    if not callable(book.secrets):
        return [
            "it must state its secrets: secrets(state, seat) -> the texts that seat may not see "
            "(domain/<game>/audit.py; docs/conformance.md)"
        ]
    return []


def _bots(book: Any) -> list[str]:
    """A game's own bots never shadow the random bot every game has."""
    if RANDOM in book.bots:
        return [f"its bots must not be named {RANDOM!r}: every game has that one already"]
    return []
