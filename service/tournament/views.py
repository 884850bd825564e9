"""A tournament as read from the stores (``Held``), and the answers built from it.

Results come only from the matches themselves (their rows' stored results), so a standing
always follows from results anyone can verify in the match exports.
"""

from __future__ import annotations

import uuid

import msgspec

from domain.tournament import (
    Action,
    Entrant,
    Pairing,
    RoundRecord,
    Settings,
    TableResult,
    TournamentError,
    forfeits,
    rounds_total,
    voided,
)
from domain.tournament.tiebreaks import order as tiebreak_order
from service.errors import ServiceError
from service.schemas import ResultInfo
from service.store import EventStore, MatchRow
from service.store.tournaments import EntrantRow, RoundRow, TournamentRow, TournamentStore
from service.tournament import schemas as ts

TABLES = uuid.UUID("5b8f6c1e-2d0a-4e61-9a57-3c1d2e8f4a90")  # the namespace of table match ids


class Held(msgspec.Struct, frozen=True, kw_only=True):
    """Everything about one tournament at one revision: row, entrants, rounds, table matches."""

    row: TournamentRow
    settings: Settings
    entrants: list[EntrantRow]
    rounds: list[RoundRow]
    matches: dict[str, MatchRow]

    def pairing(self, number: int) -> Pairing:
        """Round ``number``'s pairing (404 if it was not started)."""
        if not 1 <= number <= len(self.rounds):
            raise ServiceError(404, f"tournament {self.row.tournament_id} has no round {number} "
                               f"(rounds started: {len(self.rounds)})")
        return msgspec.convert(self.rounds[number - 1].pairing, Pairing)

    def table_match(self, number: int, table: int) -> str:
        """The match id of a table of a started round (404 for no such table)."""
        self.pairing(number)  # 404 for a round not started
        found = self.rounds[number - 1].matches.get(table)
        if found is None:
            raise ServiceError(404, f"round {number} has no table {table}")
        return found

    def status_of(self, match_id: str) -> str:
        """A table match's status ("missing" while it is not yet created)."""
        row = self.matches.get(match_id)
        return "missing" if row is None else row.status

    def round_done(self, number: int) -> bool:
        """Whether every table of a started round has finished (or was declared void)."""
        void = set(voided(self.actions(), number))
        matches = self.rounds[number - 1].matches.items()
        return all(self.status_of(m) == "finished" or t in void for t, m in matches)

    def actions(self) -> list[Action]:
        """The organizer's (and the server's) actions, in the order recorded."""
        return msgspec.convert(self.row.actions, list[Action])

    def domain_entrants(self) -> list[Entrant]:
        """The entrants as the pairing rules take them."""
        asked: dict[int, list[int]] = {}
        first: dict[int, int] = {}
        for a in self.actions():
            if a.kind == "bye" and a.entrant is not None:
                asked.setdefault(a.entrant, []).append(a.round)
            if a.kind == "late_entry" and a.entrant is not None:
                first[a.entrant] = a.round
        return [Entrant(number=e.number, name=e.name, bot=e.bot, withdrew_after=e.withdrew_after,
                        byes_requested=sorted(asked.get(e.number, [])),
                        first_round=first.get(e.number, 1)) for e in self.entrants]

    def history(self, complete_only: bool = False) -> list[RoundRecord]:
        """Each started round with the results of its finished tables (or only whole rounds)."""
        records, gone, actions = [], forfeits(self.actions()), self.actions()
        for stored in self.rounds:
            if complete_only and not self.round_done(stored.round):
                break
            void = voided(actions, stored.round)
            results = [TableResult(round=stored.round, table=table, placements=placements,
                                   forfeited=gone.get((stored.round, table), []))
                       for table, mid in stored.matches.items()
                       if table not in void and (placements := self.placements(mid)) is not None]
            records.append(RoundRecord(pairing=self.pairing(stored.round), results=results,
                                       void=void))
        return records

    def contradicted(self) -> list[Action]:
        """Recorded forfeits whose table finished without the forfeiting entrant placed last:
        the match ended on its own between the forfeit's record and its concession."""
        out = []
        for a in self.actions():
            if a.kind != "forfeit" or a.table is None or a.entrant is None:
                continue
            seats = next(t.seats for t in self.pairing(a.round).tables if t.number == a.table)
            placements = self.placements(self.table_match(a.round, a.table))
            if placements is not None and placements[seats.index(a.entrant)] != max(placements):
                out.append(a)
        return out

    def placements(self, match_id: str) -> list[int] | None:
        """A finished table's placements by seat, as its match's result records them."""
        row = self.matches.get(match_id)
        result = row.summary.result if row is not None and row.status == "finished" else None
        return None if result is None else list(result.placements)

    def total(self) -> int | None:
        """How many rounds the tournament has (None while the entrants are not all known)."""
        try:
            return int(rounds_total(self.settings, self.domain_entrants()))
        except TournamentError:  # too few entrants yet
            return None


async def read(tournaments: TournamentStore, matches: EventStore, tournament_id: str) -> Held:
    """The tournament with everything it holds; 404 when there is none."""
    row = await tournaments.get(tournament_id)
    if row is None:
        raise ServiceError(404, f"no tournament {tournament_id}")
    rounds = await tournaments.rounds(row.tournament_id)
    wanted = {mid for stored in rounds for mid in stored.matches.values()}
    return Held(row=row, settings=msgspec.convert(row.settings, Settings),
                entrants=await tournaments.entrants(row.tournament_id), rounds=rounds,
                matches=await table_matches(matches, row.tournament_id, wanted))


async def table_matches(matches: EventStore, tournament_id: str, wanted: set[str]
                        ) -> dict[str, MatchRow]:
    """The tables' matches by id: one read of the tournament's tag (a page a little larger
    than the tables), then by its own id each one that page missed. A match is kept only
    when its id is a table's: another match may carry the same tag (made before the route
    refused that), and is never taken for a table."""
    if not wanted:
        return {}
    page = await matches.list_matches(tournament=tournament_id, limit=len(wanted) + 16)
    found = {r.match_id: r for r in page if r.match_id in wanted}
    for mid in sorted(wanted - set(found)):
        row = await matches.get_match(mid)
        if row is not None:
            found[mid] = row
    return found


def table_match_id(tournament_id: str, number: int, table: int) -> str:
    """A table's match id, derived so that a retried round names the same match."""
    return str(uuid.uuid5(TABLES, f"{tournament_id}/{number}/{table}"))


def entrant_info(entrant: EntrantRow) -> ts.EntrantInfo:
    """An entrant as answered."""
    return ts.EntrantInfo(number=entrant.number, name=entrant.name, bot=entrant.bot,
                          withdrew_after=entrant.withdrew_after, approved=entrant.approved)


def round_info(held: Held, number: int) -> ts.RoundInfo:
    """A started round with each table's match, status and result."""
    pairing, stored = held.pairing(number), held.rounds[number - 1]
    names = {e.number: e.name for e in held.entrants}
    tables = []
    for table in pairing.tables:
        mid = stored.matches[table.number]
        tables.append(ts.TableInfo(
            table=table.number, seats=list(table.seats), names=[names[n] for n in table.seats],
            # status_of gives a stored match row's status (or "missing"): text the store writes
            # only from TableStatus's values, not typed as that Literal.
            match_id=mid, status=held.status_of(mid),  # type: ignore[arg-type]
            result=_result(held.matches.get(mid))))
    return ts.RoundInfo(round=number, tables=tables, byes=list(pairing.byes),
                        half_byes=list(pairing.half_byes), started_at=stored.started_at)


def _result(row: MatchRow | None) -> ResultInfo | None:
    """A finished match's result."""
    result = row.summary.result if row is not None else None
    return None if result is None else msgspec.convert(result, ResultInfo, from_attributes=True)


def tournament_info(held: Held, seed: bytes | None) -> ts.TournamentInfo:
    """The whole tournament; ``seed`` is given only once it is finished."""
    row, settings = held.row, held.settings
    return ts.TournamentInfo(
        tournament_id=row.tournament_id, name=row.name, game=settings.game,
        rules_version=settings.rules_version, options=settings.options,
        table_size=settings.table_size, format=settings.format, rounds_total=held.total(),
        seeding=settings.seeding, turn_seconds=settings.turn_seconds,
        # The row's status column is text the store writes only from Status's values.
        auto_advance=row.auto_advance, status=row.status,  # type: ignore[arg-type]
        round=row.round, seed_commitment=row.seed_commitment,
        seed=seed.hex() if seed is not None and row.status == "finished" else None,
        entrants=[entrant_info(e) for e in held.entrants],
        rounds=[round_info(held, stored.round) for stored in held.rounds],
        actions=held.actions(), max_entrants=settings.max_entrants, approval=settings.approval,
        forfeits_to_withdraw=settings.forfeits_to_withdraw,
        tiebreaks=list(tiebreak_order(settings.format, settings.tiebreaks)),
        pairing=settings.pairing,
        created_at=row.created_at, finished_at=row.finished_at)


def listed(row: TournamentRow, entrants: int) -> ts.TournamentListed:
    """A tournament as listed."""
    settings = msgspec.convert(row.settings, Settings)
    return ts.TournamentListed(
        tournament_id=row.tournament_id, name=row.name, game=settings.game,
        # The row's status column is text the store writes only from Status's values.
        format=settings.format, status=row.status,  # type: ignore[arg-type]
        round=row.round, entrants=entrants, created_at=row.created_at)
