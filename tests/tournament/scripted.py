"""Tournaments run in the domain with scripted results: settings, entrants, seeds, whole runs."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from domain.tournament import (
    Entrant,
    Pairing,
    RoundRecord,
    Settings,
    Table,
    TableResult,
    pair_round,
    rounds_total,
)
from tests.replay.random_matches import NAMES

WINTER_CUP = hashlib.sha256(b"winter cup").digest()

Outcome = Callable[[Pairing, Table], list[int]]


def settings(format: Any, table_size: int = 2, **more: Any) -> Settings:
    """Wick & Ember settings for a format."""
    return Settings(game="wick-and-ember", rules_version="1", table_size=table_size,
                    format=format, **more)


def people(count: int, withdrawn: dict[int, int] | None = None) -> list[Entrant]:
    """``count`` entrants named in order; ``withdrawn`` maps a number to its withdrew_after."""
    gone = withdrawn or {}
    return [Entrant(number=n, name=NAMES[n % len(NAMES)] + ("" if n < len(NAMES) else str(n)),
                    withdrew_after=gone.get(n)) for n in range(count)]


def seed_of(index: int) -> bytes:
    """A tournament seed for a test index."""
    return hashlib.sha256(f"tournament {index}".encode()).digest()


def random_outcome(index: int) -> Outcome:
    """Placements drawn at random per table (ties now and then), from a test index."""
    chooser = random.Random(index)

    def outcome(pairing: Pairing, table: Table) -> list[int]:
        """One table's random placements."""
        scores = [chooser.randrange(3) for _ in table.seats]
        return [1 + sum(other > mine for other in scores) for mine in scores]

    return outcome


def lower_number_wins(pairing: Pairing, table: Table) -> list[int]:
    """The entrant registered earlier places above the later ones."""
    return [1 + sum(other < mine for other in table.seats) for mine in table.seats]


def record(pairing: Pairing, outcome: Outcome) -> RoundRecord:
    """A round with every table's result."""
    results = [TableResult(round=pairing.round, table=t.number, placements=outcome(pairing, t))
               for t in pairing.tables]
    return RoundRecord(pairing=pairing, results=results)


def run(
    rules: Settings, seed: bytes, entrants: list[Entrant], outcome: Outcome
) -> list[RoundRecord]:
    """Every round of a tournament paired by pair_round and finished with ``outcome``."""
    history: list[RoundRecord] = []
    for _ in range(rounds_total(rules, entrants)):
        history.append(record(pair_round(rules, seed, entrants, history), outcome))
    return history


def placed(table: Table, winner: int) -> list[int]:
    """2-seat placements with ``winner`` first (None: a draw)."""
    return [1 if n == winner or winner is None else 2 for n in table.seats]
