"""The matcher: tables formed from the players waiting to play, by rating closeness.

Pure: the entries carry their ratings and how long each has waited ("now" was the caller's), so
the same entries always give the same tables. As lichess's pools do (lila, modules/pool,
MatchMaking: a pair's rating gap allowed to grow with the waves a player missed), an entry's
*window* (how far apart in rating the players at its table may be) starts narrow and widens with
its wait, up to a cap; a table is acceptable when its rating spread fits the window of every
player at it (the least patient decides). Only entries asking for the same game, the same
options and the same rated or casual play ever share a table, and a table's size is one every
player at it accepts. An entry that waited past ``Settings.bots_after`` and allows bots is seated
with bots filling the rest of its smallest table. docs/matchmaking.md.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from itertools import groupby
from typing import Any

import msgspec


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """How the window grows: ``start`` rating points wide, ``growth`` more each second waited,
    at most ``widest``; bots fill for an entry that allows them after ``bots_after`` seconds."""

    start: float = 2.0
    growth: float = 0.25
    widest: float = 25.0
    bots_after: float = 60.0


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """A waiting player: what it asked for, its rating (mu, sigma) and seconds waited."""

    player: str
    game: str
    seats_min: int
    seats_max: int
    rated: bool
    options: dict[str, Any] = {}
    bots: bool = False
    mu: float = 25.0
    sigma: float = 25.0 / 3
    waited: float = 0.0


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """A formed table: the players in seat order, then ``bots`` seats for server bots."""

    game: str
    rated: bool
    options: dict[str, Any]
    players: list[str]
    bots: int = 0

    @property
    def seats(self) -> int:
        """How many seats the match has."""
        return len(self.players) + self.bots


def window(entry: Entry, settings: Settings) -> float:
    """How far apart in rating the players at this entry's table may be, after its wait."""
    return min(settings.widest, settings.start + settings.growth * max(0.0, entry.waited))


def pool_key(entry: Entry) -> tuple[str, bool, str]:
    """What must agree for two entries to share a table: game, rated, options (canonical)."""
    return entry.game, entry.rated, json.dumps(entry.options, sort_keys=True)


def match_entries(entries: Iterable[Entry], settings: Settings | None = None) -> list[Table]:
    """Every table the waiting entries form now, pool by pool; the rest keep waiting."""
    settings = settings or Settings()
    ordered = sorted(entries, key=lambda e: (pool_key(e), e.mu, e.player))
    tables: list[Table] = []
    for _, pool in groupby(ordered, key=pool_key):
        tables.extend(match_pool(list(pool), settings))
    return tables


def match_pool(pool: list[Entry], settings: Settings) -> list[Table]:
    """The tables of one pool (sorted by rating): the largest sizes first, then bot fills."""
    tables: list[Table] = []
    left = pool
    for size in sorted({n for e in pool for n in range(e.seats_min, e.seats_max + 1)},
                       reverse=True):
        formed, left = tables_of_size(left, size, settings)
        tables.extend(formed)
    tables.extend(bot_tables(left, settings))
    return tables


def tables_of_size(pool: list[Entry], size: int, settings: Settings,
                   ) -> tuple[list[Table], list[Entry]]:
    """Tables of ``size`` from neighbours in rating order (greedy, lowest first), and the
    entries left over (still in rating order)."""
    fits = [e for e in pool if e.seats_min <= size <= e.seats_max]
    taken: set[str] = set()
    tables: list[Table] = []
    at = 0
    while at + size <= len(fits):
        group = fits[at:at + size]
        if acceptable(group, settings):
            tables.append(seated(group, 0))
            taken.update(e.player for e in group)
            at += size
        else:
            at += 1
    return tables, [e for e in pool if e.player not in taken]


def acceptable(group: list[Entry], settings: Settings) -> bool:
    """Whether the group's rating spread fits every member's window (sorted by rating)."""
    spread = group[-1].mu - group[0].mu
    return all(spread <= window(e, settings) for e in group)


def bot_tables(left: list[Entry], settings: Settings) -> list[Table]:
    """A table for each entry that waited past the limit and allows bots: the player and bots
    for the rest of the smallest table it accepts (at least two seats)."""
    return [seated([e], max(e.seats_min, 2) - 1) for e in left
            if e.bots and e.waited >= settings.bots_after]


def seated(group: list[Entry], bots: int) -> Table:
    """The table of ``group``: seat order drawn from the players' ids (a hash, so neither the
    highest nor the lowest rating always opens), then the bots."""
    first = group[0]
    together = ":".join(e.player for e in group)
    order = sorted(group, key=lambda e: hashlib.sha256(f"{together}:{e.player}".encode()).digest())
    return Table(game=first.game, rated=first.rated, options=first.options,
                 players=[e.player for e in order], bots=bots)
