"""Rounds: pair the next one, make its tables' matches, and move on as tables finish.

Crash-safe and idempotent: a round's pairing and its tables' match ids (derived from the
tournament, round and table) are stored first, in one transaction at the tournament's revision;
then each table is made through the match service's own path: opened under its id (done
already if it exists), each seat joined at the version it expects (a retry never takes a second
seat), started at the version it expects. A request, a restart or another server repeating any
step finds it done. The sweep (``TournamentSweep``) finishes a round left half made, starts the
next round when the last table of one finishes (``auto_advance``), and finishes the tournament
after its last round.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import msgspec

from domain.core import match
from domain.games import lookup
from domain.tournament import (
    Action,
    Pairing,
    Table,
    TournamentError,
    check_override,
    ended,
    pair_round,
)
from service import schemas
from service.background import Retry, Sweeping
from service.errors import ServiceError
from service.loading import Loaded
from service.store.tournaments import RevisionConflict
from service.tournament import schemas as ts
from service.tournament.idle import forfeit_idle
from service.tournament.tournaments import CLASH, TournamentService, changed
from service.tournament.views import Held, round_info, table_match_id

log = logging.getLogger("hearthlog.tournaments")
SETUP_SPARE = 4  # set-up steps beyond one per seat and the start, for clashes with others
SWEEP_CAP = 10.0  # the longest pause between failed sweeps


class Rounds:
    """Starting rounds and settling finished ones, over the tournament service."""

    def __init__(self, service: TournamentService) -> None:
        self.service = service
        self.store, self.matches = service.store, service.matches

    async def start_next(self, tournament_id: str, token: str | None,
                         by_hand: ts.ByHand | None = None) -> ts.RoundInfo:
        """The organizer starts the next round: pairs it (or takes its pairing by hand, with
        the reason recorded), stores it, makes its matches."""
        held = await self.service.organizer(tournament_id, token)
        held = await self.settle(held)
        status, current = held.row.status, held.row.round
        if status == "registering":
            raise ServiceError(409, "registration is still open: close it "
                               "(POST /tournaments/{id}/close) before starting a round")
        if status == "finished":
            raise ServiceError(409, f"the tournament is finished: all {current} rounds "
                               "are played")
        if current and not held.round_done(current):
            raise ServiceError(409, f"round {current} is still being played (tables "
                               f"{', '.join(map(str, self.unfinished(held)))}): a round starts "
                               "once every table of the one before has finished")
        held = await self.pair_and_store(held, by_hand)
        return round_info(await self.set_up(held), held.row.round)

    async def pair_and_store(self, held: Held, by_hand: ts.ByHand | None = None) -> Held:
        """Pair the next round from the results so far (or take the organizer's) and store
        it; the tournament re-read."""
        seed = await self.service.lot_seed(held)
        number = held.row.round + 1
        actions: list[dict[str, object]] = []
        try:
            if by_hand is None:
                pairing = pair_round(held.settings, seed, held.domain_entrants(), held.history())
            else:
                pairing = hand_paired(held, by_hand, number)
                actions = [msgspec.to_builtins(Action(kind="override", round=number,
                                                      reason=by_hand.reason))]
        except TournamentError as error:
            status = 409 if by_hand is None else 422
            raise ServiceError(status, f"round {number} cannot be paired: {error.message}"
                               ) from None
        tid = held.row.tournament_id
        matches = {t.number: table_match_id(tid, number, t.number) for t in pairing.tables}
        try:
            await self.store.add_round(held.row, msgspec.to_builtins(pairing), matches, actions)
        except RevisionConflict:
            raise changed(tid) from None
        return await self.service.held(tid)

    async def set_up(self, held: Held) -> Held:
        """Make, seat and start every table of the current round not yet in play."""
        number = held.row.round
        tokens = await self.store.token_hashes(held.row.tournament_id)
        void = set(voided_tables(held, number))
        for table in held.pairing(number).tables:
            mid = held.rounds[number - 1].matches[table.number]
            if held.status_of(mid) in ("missing", "lobby") and table.number not in void:
                try:
                    await self.set_up_table(held, number, table.number, table.seats, tokens)
                except ServiceError as error:
                    if error.status >= 500 or error.status == 409:
                        raise
                    held = await self.void(held, number, table.number, error.message)
        return await self.service.concede_withdrawn(await self.service.held(held.row.tournament_id))

    async def void(self, held: Held, number: int, table: int, why: str) -> Held:
        """Declare void a table the match service refuses to make (a 4xx no retry changes):
        recorded by the server with the refusal, so the round is not wedged."""
        log.warning("tournament %s round %d table %d cannot start, declared void: %s",
                    held.row.tournament_id, number, table, why)
        reason = f"the table could not start: {why}"[:200]
        await self.service.record(held, [Action(kind="void", round=number, table=table,
                                                by="server", reason=reason)])
        return await self.service.held(held.row.tournament_id)

    async def set_up_table(self, held: Held, number: int, table: int, seats: list[int],
                           tokens: dict[int, bytes | None]) -> None:
        """Open one table's match, seat its entrants in order and start it; each step once."""
        settings, mid = held.settings, held.rounds[number - 1].matches[table]
        game = lookup(settings.game, settings.rules_version)
        body = schemas.CreateMatch(
            game=settings.game, seats=len(seats), options=settings.options,
            tournament=held.row.tournament_id, label=f"round {number} table {table}",
            turn_seconds=settings.turn_seconds)
        secrets = await self.store.secrets(held.row.tournament_id)
        await self.matches.open_table(game, body, mid, secrets[1] if secrets else b"")
        for _ in range(len(seats) + 1 + SETUP_SPARE):  # a seat a step, then the start
            loaded = await self.matches.cache.load(mid)
            if not isinstance(loaded.state, match.Lobby):
                return
            try:
                await self.next_step(mid, loaded, seats, held, tokens)
            except ServiceError as error:
                if error.status != 409:  # another writer took this step first: look again
                    raise
        raise ServiceError(503, f"round {number} table {table} could not be set up; try again")

    async def next_step(self, mid: str, loaded: Loaded, seats: list[int], held: Held,
                        tokens: dict[int, bytes | None]) -> None:
        """Seat the next entrant, or start the full table, at the version it was read at."""
        state, version = loaded.state, loaded.version
        taken = len(state.names)
        if taken == len(seats):
            await self.matches.begin(mid, expected=version)
            return
        entrant = held.entrants[seats[taken]]
        command = match.JoinSeat(name=entrant.name, bot=entrant.bot, player=entrant.player_id)
        await self.matches.take_seat(mid, command, tokens.get(entrant.number), expected=version)

    async def settle(self, held: Held) -> Held:
        """Finish a half-made round; after a whole round, finish the tournament if it was the
        last, or start the next one if it advances by itself. Each step is written once."""
        if held.row.status != "running":
            return held
        current = held.row.round
        if any(held.status_of(m) in ("missing", "lobby")
               for m in held.rounds[current - 1].matches.values()):
            held = await self.set_up(held)
        if not held.round_done(current):
            return held
        held = await self.service.void_contradicted(held)
        total = held.total()
        seed = await self.service.lot_seed(held)
        why = ended(held.settings, seed, held.domain_entrants(), held.history())
        if total is not None and current >= total:
            await self.service.write(held, self.store.set_status(held.row, "finished"))
        elif why is not None:  # nobody left to pair: it ends by itself, standings and bundle
            await self.service.record(held, [Action(kind="end", round=current, by="server",
                                                    reason=why[:200])], status="finished")
        elif held.row.auto_advance:
            held = await self.set_up(await self.pair_and_store(held))
            return held
        return await self.service.held(held.row.tournament_id)

    def unfinished(self, held: Held) -> list[int]:
        """The current round's tables not yet finished."""
        matches = held.rounds[held.row.round - 1].matches
        return [table for table, mid in matches.items() if held.status_of(mid) != "finished"]


class TournamentSweep(Sweeping):
    """Every ``interval`` seconds, settles each running tournament whose tables are not in play."""

    name = "hearthlog-tournament-sweep"
    failure = "the tournament sweep failed; trying again"

    def __init__(self, rounds: Rounds, interval: float,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.rounds, self.interval, self.now = rounds, interval, now  # now: a test's own clock
        self.idle_checked: dict[str, float] = {}  # when each tournament's idle seats were read
        self.retry = Retry(log, first=interval, cap=max(interval, SWEEP_CAP), now=now)

    async def sweep(self) -> None:
        """Settle every running tournament whose tables are not in play."""
        for tournament_id in await self.rounds.store.needing_sweep():
            await self.settle_one(tournament_id)
        watched = await self.rounds.store.watching_idle()
        self.idle_checked = {t: self.idle_checked[t] for t, _ in watched
                             if t in self.idle_checked}  # forget the ones no longer running
        for tournament_id, seconds in watched:
            now = self.now()  # a seat times out at most once a turn: look once a turn
            if now - self.idle_checked.get(tournament_id, -seconds) < seconds:
                continue
            self.idle_checked[tournament_id] = now
            try:
                await forfeit_idle(self.rounds.service,
                                   await self.rounds.service.held(tournament_id))
            except ServiceError as error:  # a clash: the next sweep looks again
                log.info("tournament %s: idle seats not forfeited now: %s", tournament_id,
                         error.message)

    async def settle_one(self, tournament_id: str) -> None:
        """Settle one tournament, unless it is backed off after failing; a clash means another
        writer did it (the next sweep looks again); any other failure backs it off."""
        if self.retry.waiting(tournament_id):
            return
        try:
            await self.rounds.settle(await self.rounds.service.held(tournament_id))
            self.retry.succeeded(tournament_id)
        except ServiceError as error:
            if error.status == 409 and CLASH in error.message:  # another writer: look again
                log.info("tournament %s not settled now: %s", tournament_id, error.message)
            else:  # a refusal a retry may not change: backed off, so logged ever more rarely
                self.retry.failed(tournament_id, "tournament %s not settled: %s", tournament_id,
                                  error.message, plain=True)
        except Exception:  # the database may be away, or refusing: back this one off
            self.retry.failed(tournament_id, "tournament %s not settled", tournament_id)


def hand_paired(held: Held, by_hand: ts.ByHand, number: int) -> Pairing:
    """The organizer's pairing of round ``number``, checked (TournamentError naming why not)."""
    pairing = Pairing(round=number, byes=sorted(by_hand.byes), tables=[
        Table(number=i, seats=list(seats)) for i, seats in enumerate(by_hand.tables, start=1)])
    check_override(held.settings, held.domain_entrants(), pairing)
    return pairing


def voided_tables(held: Held, number: int) -> list[int]:
    """The tables of a round declared void."""
    return [a.table for a in held.actions()
            if a.kind == "void" and a.round == number and a.table is not None]
