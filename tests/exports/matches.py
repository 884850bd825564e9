"""Random finished matches of every built-in game, served by a store as the exports read them.

`FinishedStore` answers `finished_matches` and `count_finished` (all the export code asks of a
store) from matches played by tests.replay.random_matches, so an export runs through the
server's own code (service.exports.export_lines) without a database. `truth` says what those
matches were, from the played commands, for the tests to compare with what a tool reads.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import msgspec

from domain.games import BUILT_IN, GAMES
from service.exports import export_lines
from service.store import ExportFilter, FinishedMatch, MatchRow
from tests.replay.random_matches import Played, play


def played(count: int) -> list[Played]:
    """``count`` random finished matches, the built-in games in turn (fixed seeds)."""
    return [play(index, game=GAMES[BUILT_IN[index % len(BUILT_IN)]]) for index in range(count)]


class FinishedStore:
    """The export side of a store, over matches played in memory, oldest finish first."""

    def __init__(self, matches: list[Played]) -> None:
        self.matches = sorted(matches, key=lambda m: (m.finished_at, m.match_id))

    async def finished_matches(self, filters: ExportFilter, events: bool = True,
                               ) -> AsyncIterator[FinishedMatch]:
        """Every match as the Postgres store streams it (filters are not this test's subject)."""
        for m in self.matches:
            yield FinishedMatch(row=row(m), server_seed=m.server_seed, events=m.events)

    async def count_finished(self, filters: ExportFilter) -> int:
        """How many matches follow."""
        return len(self.matches)


def row(m: Played) -> MatchRow:
    """The match row the store would hold for a finished match."""
    created = msgspec.json.decode(m.events[0].data)
    return MatchRow(
        match_id=m.match_id, game=created["game"], rules_version=created["rules_version"],
        status="finished", seats=created["seats"], seats_taken=created["seats"], practice=False,
        tournament=m.tournament, label=created.get("label"), version=len(m.events),
        head_hash=m.events[-1].hash, seed_commitment=created["seed_commitment"],
        summary=m.summary, created_at=m.created_at, updated_at=m.finished_at,
        finished_at=m.finished_at,
    )


async def exported(matches: list[Played], format: str) -> bytes:
    """The export of these matches in a format, as GET /exports/matches writes it."""
    store: Any = FinishedStore(matches)
    return b"".join([part async for part in export_lines(store, ExportFilter(), format)])


def started_at(m: Played) -> datetime:
    """When play began: the time of the match_started event."""
    return next(e.recorded_at for e in m.events if e.type == "match_started")


def truth(matches: list[Played]) -> dict[str, Any]:
    """Win rate by seat, the average match length in seconds and the average number of moves,
    worked out from the played matches themselves."""
    wins: dict[int, list[bool]] = {}
    for m in matches:
        assert m.summary.result is not None
        for seat in range(len(m.summary.names)):
            wins.setdefault(seat, []).append(seat in m.summary.result.winners)
    lengths = [(m.finished_at - started_at(m)).total_seconds() for m in matches]
    moves = [sum(1 for e in m.events if "command" in e.metadata and e.metadata["command"]["type"]
                 not in ("join_seat", "start_match")) for m in matches]
    return {
        "win_rate": {seat: sum(won) / len(won) for seat, won in sorted(wins.items())},
        "length": sum(lengths) / len(lengths),
        "moves": sum(moves) / len(moves),
    }
