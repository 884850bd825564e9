"""Each game's event dispatch covers its Event union exactly, no more and no less.

An event type is named three times in a game: in its ``Event`` union (domain/<game>/events.py),
in evolve's table (``_RECORDERS`` in domain/<game>/evolve.py) and in the log's (``_WRITERS`` in
domain/<game>/log.py). A type missing from a table fails only when that event is first folded or
logged, maybe in production; a type in a table but not in the union is never decoded. This test
holds every registered game of the domain package to both tables (and shows, on tables made
incomplete on purpose, that it would catch either slip). The commands are dispatched by
``match``/``isinstance`` in each game's rules.py, not by a table, so they are not listed here.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import pytest

import domain.games  # importing registers the games the server plays
from domain.core.contract import members
from domain.core.decider import Rulebook
from domain.registry import rulebooks

BOOKS = [book for book in rulebooks() if book.evolve.__module__.startswith("domain.")]
GAMES = pytest.mark.parametrize("book", BOOKS, ids=lambda b: f"{b.id}-v{b.rules_version}")


class NotAnEvent:
    """A type no game's Event union holds."""


def tables(book: Rulebook) -> dict[str, Mapping[type, Any]]:
    """The rulebook's dispatch tables keyed by event type: evolve's and the log's."""
    return {"evolve": vars(sys.modules[book.evolve.__module__])["_RECORDERS"],
            "log": vars(sys.modules[book.log_entries.__module__])["_WRITERS"]}


def coverage(table: Mapping[type, Any], union: Any) -> list[str]:
    """What keeps a table from covering exactly the members of an Event union."""
    expected, found = set(members(union)), set(table)
    return ([f"{kind.__name__} is in the Event union but not in the table"
             for kind in sorted(expected - found, key=lambda k: k.__name__)]
            + [f"{kind.__name__} is in the table but not in the Event union"
               for kind in sorted(found - expected, key=lambda k: k.__name__)])


@GAMES
@pytest.mark.parametrize("which", ["evolve", "log"])
def test_each_dispatch_table_covers_exactly_the_games_event_union(book, which):
    """Given a game's Event union, then its evolve and log tables each have exactly one entry
    for every member of it and none for anything else."""
    assert coverage(tables(book)[which], book.Event) == []


@GAMES
@pytest.mark.parametrize("which", ["evolve", "log"])
@pytest.mark.parametrize("slip", ["missing", "extra"])
def test_a_table_missing_an_event_or_holding_a_stranger_is_caught(book, which, slip):
    """Given a copy of a real table with its last event type dropped (or a type added that the
    union does not hold), then the check names that type."""
    table = dict(tables(book)[which])
    if slip == "missing":
        dropped = members(book.Event)[-1]
        del table[dropped]
        expected = f"{dropped.__name__} is in the Event union but not in the table"
    else:
        table[NotAnEvent] = None
        expected = "NotAnEvent is in the table but not in the Event union"
    assert coverage(table, book.Event) == [expected]


def test_every_game_of_the_domain_is_checked():
    """Given the games built in, then each has its tables checked here."""
    assert {book.id for book in BOOKS} >= set(domain.games.BUILT_IN)
