"""The tournament verifier's problems and its comparisons of one match or one pairing."""

from __future__ import annotations

from typing import Any, NoReturn

import msgspec

from domain.tournament import Pairing, Table
from projections.export import MatchExport
from projections.tournament.bundle import (
    BundleTable,
    RoundLine,
    StandingRow,
    StandingsLine,
    TournamentLine,
)


class TournamentProblem(msgspec.Struct, frozen=True, kw_only=True):
    """The first difference found: where (round and table, when it concerns one) and what."""

    check: str
    message: str
    round: int | None = None
    table: int | None = None
    expected: str | None = None
    found: str | None = None


class Stop(Exception):
    """Raised inside the walk to stop at the first problem."""

    def __init__(self, problem: TournamentProblem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def stop(check: str, message: str, **where: Any) -> NoReturn:
    """Stop the verification with a problem."""
    raise Stop(TournamentProblem(check=check, message=message, **where))


def check_match(
    header: TournamentLine, table: BundleTable, export: MatchExport, round_number: int
) -> None:
    """A verified match belongs to its table: its id, tournament tag, rules and players."""
    match = export.header
    settings = header.settings
    names = {e.number: e for e in header.entrants}
    at = f"round {round_number}, table {table.table}"
    players = [(p.name, p.bot) for p in match.players]
    seated = [(names[n].name, names[n].bot) if n in names else (f"entrant {n}", None)
              for n in table.seats]
    for what, expected, found in (
        ("match id", table.match_id, match.match_id),
        ("tournament tag", header.tournament_id, match.tournament),
        ("game", settings.game, match.game),
        ("rules version", settings.rules_version, match.rules_version),
        ("options", settings.options, match.options),
        ("seats", len(table.seats), match.seats),
        ("players in seat order", seated, players),
    ):
        if expected != found:
            stop("matches", f"{at}: {what} differs: expected {_json(expected)}, found "
                 f"{_json(found)}", round=round_number, table=table.table,
                 expected=_json(expected), found=_json(found))


def as_pairing(line: RoundLine) -> Pairing:
    """A round line as the domain's pairing."""
    tables = [Table(number=t.table, seats=t.seats) for t in line.tables]
    return Pairing(round=line.round, tables=tables, byes=line.byes, half_byes=line.half_byes)


def compare_pairing(expected: Pairing, line: RoundLine) -> None:
    """Stop at the first difference between the re-derived pairing and a round line."""
    r = line.round
    found = as_pairing(line)
    for mine, theirs in zip(expected.tables, found.tables, strict=False):
        if mine.number != theirs.number:
            stop("pairing", f"round {r}: table {theirs.number} stands where table {mine.number} "
                 "should", round=r, table=theirs.number)
        if mine.seats != theirs.seats:
            stop("pairing", f"round {r}, table {mine.number}: seats differ: expected "
                 f"{mine.seats}, found {theirs.seats}", round=r, table=mine.number,
                 expected=_json(mine.seats), found=_json(theirs.seats))
    if len(expected.tables) != len(found.tables):
        stop("pairing", f"round {r}: expected {len(expected.tables)} tables, found "
             f"{len(found.tables)}", round=r)
    if expected.half_byes != found.half_byes:
        stop("pairing", f"round {r}: requested byes differ: expected {expected.half_byes}, "
             f"found {found.half_byes}", round=r)
    if expected.byes != found.byes:
        stop("pairing", f"round {r}: byes differ: expected {expected.byes}, found {found.byes}",
             round=r, expected=_json(expected.byes), found=_json(found.byes))


def compare_standings(expected: list[StandingRow], line: StandingsLine) -> None:
    """Stop at the first rank, and its first field, where the standings line differs."""
    for mine, theirs in zip(expected, line.standings, strict=False):
        for field in mine.__struct_fields__:
            want, got = getattr(mine, field), getattr(theirs, field)
            if want != got:
                stop("standings", f"standings, rank {mine.rank}: {field} differs: expected "
                     f"{_json(want)}, found {_json(got)}", expected=_json(mine),
                     found=_json(theirs))
    if len(expected) != len(line.standings):
        stop("standings", f"the standings list {len(line.standings)} entrants, the tournament "
             f"has {len(expected)}")


def _json(value: Any) -> str:
    """A value shown in a report."""
    return msgspec.json.encode(value).decode()
