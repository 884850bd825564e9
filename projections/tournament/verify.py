"""Checking a tournament bundle without trusting the server, one line at a time.

In order, stopping at the first difference: the seed against its commitment and the id
against the settings it binds; each match with projections.verify and against its round's
table (a forfeit's entrant placed last); each round's pairing re-derived by pair_round from
the verified results of the rounds before it; every table has its match (or was declared
void); the actions agree with the entrants; the number of rounds recomputed (a bundle cut short
is refused); the standings recomputed from the verified results. Only the results are kept,
never a match.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from domain.core.decider import Game
from domain.games import RULEBOOKS
from domain.tournament import (
    RoundRecord,
    TableResult,
    TournamentError,
    check_actions,
    check_override,
    due_withdrawal,
    ended,
    forfeits,
    overridden,
    pair_round,
    rounds_total,
    rows,
    standings,
    tournament_id,
    voided,
)
from projections.tournament.bundle import (
    FORMAT_VERSION,
    MatchLine,
    RoundLine,
    StandingRow,
    StandingsLine,
    TournamentLine,
    decode_line,
)
from projections.tournament.checks import (
    Stop,
    TournamentProblem,
    as_pairing,
    check_match,
    compare_pairing,
    compare_standings,
    stop,
)
from projections.verify import verify


class TournamentReport(msgspec.Struct, frozen=True, kw_only=True):
    """The verdict on a bundle; ``ok`` only when every check passed."""

    tournament_id: str | None
    ok: bool
    rounds: int
    matches: int
    checked: list[str]
    problem: TournamentProblem | None = None


def verify_bundle(
    lines: Iterable[bytes], rulebooks: Mapping[tuple[str, str], Game] = RULEBOOKS
) -> TournamentReport:
    """Run every check on a finished tournament's bundle, a line at a time."""
    walk = _Walk(rulebooks)
    try:
        for number, raw in enumerate(lines, start=1):
            if raw.strip():
                walk.line(number, raw)
        walk.finish()
    except Stop as stopped:
        return walk.report(stopped.problem)
    return walk.report(None)


class _Walk:
    """The verifier's state: the header, each round's tables and the verified results."""

    def __init__(self, rulebooks: Mapping[tuple[str, str], Game]) -> None:
        self.rulebooks = rulebooks
        self.header: TournamentLine | None = None
        self.seed = b""
        self.rounds: list[RoundLine] = []
        self.results: dict[tuple[int, int], TableResult] = {}
        self.paired = 0  # rounds whose pairing was re-derived and found equal
        self.final: StandingsLine | None = None
        self.checked: list[str] = []
        self.gone: dict[tuple[int, int], list[int]] = {}  # forfeits by (round, table)

    def line(self, number: int, raw: bytes) -> None:
        """Check one line in its place."""
        try:
            line = decode_line(raw)
        except msgspec.DecodeError as error:
            stop("format", f"line {number} is not a tournament bundle line: {error}")
        if self.final is not None:
            stop("format", f"line {number} follows the standings line, which must be last")
        if self.header is None:
            self._header(line, number)
        elif isinstance(line, RoundLine):
            self._round(line)
        elif isinstance(line, MatchLine):
            self._match(line)
        elif isinstance(line, StandingsLine):
            self.final = line
        else:
            stop("format", f"line {number} is a second header")

    def _header(self, line: Any, number: int) -> None:
        """The first line: a header this verifier reads, its seed matching the commitment."""
        if not isinstance(line, TournamentLine):
            stop("format", f"line {number} is not a tournament header (the first line must be)")
        if line.format_version != FORMAT_VERSION:
            stop("format", f"bundle format version {line.format_version} is unknown to this "
                 f"verifier (it reads version {FORMAT_VERSION})")
        self.header = line
        self.checked.append("format")
        try:
            self.seed = bytes.fromhex(line.seed)
        except ValueError:
            stop("commitment", "the tournament seed is not hex")
        digest = hashlib.sha256(self.seed).hexdigest()
        if digest != line.seed_commitment:
            stop("commitment", "sha256(tournament seed) does not match the seed commitment",
                 expected=line.seed_commitment, found=digest)
        self.checked.append("commitment")
        derived = tournament_id(line.seed_commitment, line.name, line.settings)
        if derived != line.tournament_id:
            stop("settings", "the tournament id does not follow from its name, settings and "
                 "seed commitment: the settings (or the name) are not the ones it was created "
                 "with", expected=derived, found=line.tournament_id)
        self.checked.append("settings")
        self.gone = forfeits(line.actions)

    def _round(self, line: RoundLine) -> None:
        """A round's line: the next in order; its pairing checked once earlier results are in."""
        if line.round != len(self.rounds) + 1:
            stop("pairing", f"round {line.round} comes where round {len(self.rounds) + 1} should",
                 round=line.round)
        self.rounds.append(line)
        self._pair_ready()

    def _match(self, line: MatchLine) -> None:
        """A match: verified on its own, then against its round's table; its result kept."""
        assert self.header is not None
        where = {"round": line.round, "table": line.table}
        table = self._table(line.round, line.table)
        if (line.round, line.table) in self.results:
            stop("matches", f"round {line.round}, table {line.table}: a second match", **where)
        report = verify(line.export, self.rulebooks)
        if not report.ok:
            assert report.problem is not None
            stop("matches", f"round {line.round}, table {line.table}: match "
                 f"{report.match_id} does not verify: {report.problem.message}",
                 expected=report.problem.expected, found=report.problem.found, **where)
        if line.table in voided(self.header.actions, line.round):
            stop("matches", f"round {line.round}, table {line.table}: a match for a table "
                 "declared void", **where)
        check_match(self.header, table, line.export, line.round)
        assert line.export.header.result is not None
        placements = line.export.header.result.placements
        gone = self.gone.get((line.round, line.table), [])
        for number in gone:
            seat = table.seats.index(number) if number in table.seats else None
            if seat is None or placements[seat] != max(placements):
                stop("actions", f"round {line.round}, table {line.table}: entrant {number} "
                     "forfeited but is not placed last", **where)
        self.results[(line.round, line.table)] = TableResult(
            round=line.round, table=line.table, placements=placements, forfeited=gone)
        self._pair_ready()

    def _table(self, round_number: int, table_number: int) -> Any:
        """The round line's table a match line names."""
        if not 1 <= round_number <= len(self.rounds):
            stop("matches", f"round {round_number}, table {table_number}: a match of a round "
                 "with no round line before it", round=round_number, table=table_number)
        found = [t for t in self.rounds[round_number - 1].tables if t.table == table_number]
        if not found:
            stop("matches", f"round {round_number}, table {table_number}: the round has no such "
                 "table", round=round_number, table=table_number)
        return found[0]

    def history(self, upto: int) -> list[RoundRecord]:
        """The rounds before ``upto`` as pairings with their verified results."""
        assert self.header is not None
        return [
            RoundRecord(
                pairing=as_pairing(line),
                results=[self.results[(line.round, t.table)] for t in line.tables
                         if (line.round, t.table) in self.results],
                void=voided(self.header.actions, line.round),
            )
            for line in self.rounds[: upto - 1]
        ]

    def _complete(self, line: RoundLine) -> bool:
        """Whether every table of a round has its verified result (or was declared void)."""
        assert self.header is not None
        void = voided(self.header.actions, line.round)
        return all((line.round, t.table) in self.results or t.table in void
                   for t in line.tables)

    def _pair_ready(self) -> None:
        """Re-derive every round whose earlier rounds are all complete and compare."""
        while self.paired < len(self.rounds) and all(
            self._complete(line) for line in self.rounds[: self.paired]
        ):
            self._check_pairing(self.rounds[self.paired])
            self.paired += 1

    def _check_pairing(self, line: RoundLine) -> None:
        """One round's tables and byes against pair_round's."""
        assert self.header is not None
        header = self.header
        by_hand = overridden(header.actions, line.round)
        if by_hand is not None:  # the organizer's own pairing: checked as a round, recorded
            try:
                check_override(header.settings, header.entrants, as_pairing(line))
            except TournamentError as error:
                stop("pairing", f"round {line.round}, paired by the organizer: {error.message}",
                     round=line.round)
            self.checked.append(f"round {line.round} paired by the organizer: {by_hand.reason}")
            return
        try:
            expected = pair_round(header.settings, self.seed, header.entrants,
                                  self.history(line.round))
        except TournamentError as error:
            stop("pairing", f"round {line.round}: no such round can be paired ({error.message})",
                 round=line.round)
        compare_pairing(expected, line)

    def finish(self) -> None:
        """After the last line: every table has a match, every round paired, the standings."""
        if self.header is None:
            stop("format", "the bundle is empty")
        for line in self.rounds:
            void = voided(self.header.actions, line.round)
            for t in line.tables:
                if (line.round, t.table) not in self.results and t.table not in void:
                    stop("matches", f"round {line.round}, table {t.table}: no match in the "
                         f"bundle (match {t.match_id} is missing)", round=line.round,
                         table=t.table)
        self.checked += ["matches", "pairing"]
        self._check_actions()
        self._check_rounds()
        self._check_standings()
        self.checked.append("standings")

    def _check_actions(self) -> None:
        """The actions name registered entrants and played rounds, every withdrawal is one,
        and each entrant at the forfeits that withdraw it (settings) is withdrawn by then."""
        assert self.header is not None
        header = self.header
        try:
            check_actions(header.actions, header.entrants, len(self.rounds))
        except TournamentError as error:
            stop("actions", error.message)
        for e in header.entrants:
            for count in range(1, len(header.actions) + 1):
                taken = header.actions[:count]
                last = taken[-1]
                if last.kind == "forfeit" and last.entrant == e.number and due_withdrawal(
                        header.settings, taken, e.number) and (
                        e.withdrew_after is None or e.withdrew_after > last.round):
                    stop("actions", f"entrant {e.number} reached forfeits_to_withdraw in round "
                         f"{last.round} but was not withdrawn then", round=last.round)
        self.checked.append("actions")

    def _check_rounds(self) -> None:
        """The bundle holds every round the tournament has: the count recomputed from the
        settings and entrants, or fewer when no round could follow (recomputed too) or the
        organizer ended it after the last (an end recorded in the actions)."""
        assert self.header is not None
        settings, entrants = self.header.settings, self.header.entrants
        try:
            total = rounds_total(settings, entrants)
        except TournamentError as error:
            stop("pairing", f"the tournament cannot be run: {error.message}")
        played = len(self.rounds)
        if played > total:
            stop("pairing", f"the bundle has {played} rounds, the tournament {total}")
        if played == total:
            return
        if ended(settings, self.seed, entrants, self.history(played + 1)) is not None:
            return
        if any(a.kind == "end" and a.by == "organizer" and a.round == played
               for a in self.header.actions):
            self.checked.append(f"ended by the organizer after round {played} of {total}")
            return
        stop("pairing", f"round {played + 1} is missing: the tournament has {total} rounds, "
             f"the bundle {played}, and nothing ended it early", round=played + 1)

    def _check_standings(self) -> None:
        """The standings line equals the standings recomputed from the verified results."""
        assert self.header is not None
        if self.final is None:
            stop("standings", "the bundle has no standings line")
        if self.final.after_round != len(self.rounds):
            stop("standings", f"the standings are after round {self.final.after_round}, the "
                 f"bundle has {len(self.rounds)} rounds")
        header = self.header
        table = standings(header.settings, self.seed, header.entrants,
                          self.history(len(self.rounds) + 1))
        compare_standings([msgspec.convert(row, StandingRow) for row in rows(table)], self.final)

    def report(self, problem: TournamentProblem | None) -> TournamentReport:
        """The verdict."""
        return TournamentReport(
            tournament_id=self.header.tournament_id if self.header else None,
            ok=problem is None,
            rounds=len(self.rounds),
            matches=len(self.results),
            checked=self.checked,
            problem=problem,
        )
