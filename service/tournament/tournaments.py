"""Tournaments' use cases: create, register, close, read, find a player's table, withdraw,
forfeit, standings. Rounds are made by ``service.tournament.rounds``; the bundle is streamed by
``service.tournament.bundle``.

An organizer token (shown once) closes registration, starts rounds and forfeits no-shows; a
player token (shown once) finds its table and is also its seat token in every match of the
tournament. Both are kept only as SHA-256 hashes. Every change is written at the tournament's
revision (service.store.tournaments); a clash answers 409 and changes nothing.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Awaitable, Sequence
from typing import Literal

import msgspec

from domain.core import match
from domain.games import UnknownRules, lookup
from domain.tournament import (
    Action,
    Settings,
    TournamentError,
    check_settings,
    due_withdrawal,
    rounds_total,
    rows,
    standings,
    standings_csv,
    tournament_id,
)
from domain.tournament.actions import Actor
from domain.tournament.crosstable import crosstable, crosstable_csv
from domain.tournament.trf import trf_text
from projections.tournament import StandingRow
from service import auth
from service.errors import ServiceError, forbidden, unauthorized
from service.loading import game_of
from service.matches import MatchService, rule_errors
from service.names import likeness
from service.sources import SeedSource, secret_seed
from service.store import EventStore, PostgresStore
from service.store.players import Player
from service.store.tournaments import (
    Full,
    NameTaken,
    NewEntrant,
    NewTournament,
    RegistrationClosed,
    RevisionConflict,
    TournamentStore,
)
from service.tournament import schemas as ts
from service.tournament.views import Held, entrant_info, listed, read, tournament_info

log = logging.getLogger("hearthlog.tournaments")
NEEDS_ORGANIZER = "this needs the organizer token: send 'Authorization: Bearer <token>'"
CLASH = "changed meanwhile"  # the words of a revision clash (changed), which a retry resolves
ENTRANTS_CAP = "HEARTHLOG_TOURNAMENT_ENTRANTS"  # the server's cap on any tournament's entrants


class TournamentService:
    """The tournament use cases, over the tournament store and the match service; ``seeds``
    draws each new tournament's secret seed (service.sources). Its tokens are credentials: they
    always come from ``secrets`` (service.auth), never from ``seeds``."""

    def __init__(self, store: TournamentStore, matches: MatchService, *,
                 seeds: SeedSource = secret_seed, entrants_cap: int | None = None) -> None:
        self.store, self.matches, self.seeds = store, matches, seeds
        self.entrants_cap = entrants_cap or int(os.environ.get(ENTRANTS_CAP) or 256)

    async def create(self, body: ts.CreateTournament) -> ts.TournamentCreated:
        """Open a tournament: check its settings, commit to a fresh seed, hand out the token."""
        settings = settings_of(body)
        if (settings.max_entrants or 0) > self.entrants_cap:
            raise ServiceError(422, f"max_entrants {settings.max_entrants} is above this "
                               f"server's cap of {self.entrants_cap} ({ENTRANTS_CAP})")
        seed, token = self.seeds(), auth.new_token()
        commitment = hashlib.sha256(seed).hexdigest()
        row = await self.store.create(NewTournament(
            tournament_id=tournament_id(commitment, body.name, settings), name=body.name,
            settings=msgspec.to_builtins(settings), auto_advance=body.auto_advance, seed=seed,
            seed_commitment=commitment, organizer_token_hash=auth.token_hash(token)))
        return ts.TournamentCreated(
            tournament_id=row.tournament_id, organizer_token=token,
            seed_commitment=row.seed_commitment, tournament=await self.get(row.tournament_id))

    async def list(self, limit: int, offset: int) -> ts.TournamentPage:
        """A page of tournaments, newest first."""
        rows = await self.store.page(limit + 1, offset)
        return ts.TournamentPage(tournaments=[listed(row, count) for row, count in rows[:limit]],
                                 next_offset=offset + limit if len(rows) > limit else None)

    async def get(self, tournament_id: str) -> ts.TournamentInfo:
        """The tournament: settings, entrants, rounds, tables; the seed once finished."""
        held = await self.held(tournament_id)
        return tournament_info(held, await self.seed(held))

    async def round(self, tournament_id: str, number: int) -> ts.RoundInfo:
        """One started round."""
        held = await self.held(tournament_id)
        return tournament_info(held, None).rounds[held.pairing(number).round - 1]

    async def register(self, tournament_id: str, body: ts.Register,
                       player: tuple[Player, bytes] | None = None) -> ts.Registered:
        """Add an entrant while registration is open; a person gets a player token, a player
        (with its token's hash) enters with its own. Any number of registrations at once each
        succeed or name their refusal: none is a clash."""
        held = await self.held(tournament_id)
        if body.bot is not None and body.bot not in bot_names(held.settings):
            raise ServiceError(422, f"{held.settings.game} has no bot {body.bot!r}")
        player = None if body.bot else player  # a server bot is nobody's entrant
        name = body.name or (player[0].name if player else None)  # prepared as decoded
        if name is None:
            raise ServiceError(400, "the body needs a name (or send a player's token: "
                               "'Authorization: Bearer <player token>')")
        token = None if body.bot or player else auth.new_token()
        hashed = player[1] if player else auth.token_hash(token) if token else None
        if player and hashed is not None:
            await self._not_entered(held, hashed)
        cap = min(held.settings.max_entrants or self.entrants_cap, self.entrants_cap)
        approved = not held.settings.approval or held.row.status != "registering"  # late: in
        try:
            number = await self.store.register(held.row.tournament_id, NewEntrant(
                name=name, name_key=likeness(name), bot=body.bot, token_hash=hashed,
                approved=approved, player_id=player[0].player_id if player else None),
                cap, held.settings.late_entry_rounds)
        except RegistrationClosed as closed:
            raise ServiceError(409, f"registration is closed (the tournament is {closed}); no "
                               "entrant can be added") from None
        except Full:
            raise ServiceError(409, f"the tournament is full: it takes {cap} entrants") from None
        except NameTaken:
            raise ServiceError(409, f"an entrant of this tournament is already named {name!r} "
                               "or a name that looks like it") from None
        entrant = ts.EntrantInfo(number=number, name=name, bot=body.bot, approved=approved)
        return ts.Registered(entrant=entrant, player_token=token)

    async def _not_entered(self, held: Held, token_hash: bytes) -> None:
        """409 for a player already entered in this tournament."""
        number = await self.store.entrant_for_token(held.row.tournament_id, token_hash)
        if number is not None:
            raise ServiceError(409, f"this player is already entrant {number} of this "
                               "tournament")

    async def close(self, tournament_id: str, token: str | None) -> ts.TournamentInfo:
        """The organizer closes registration: the entrants are fixed (any still waiting for
        approval are dropped), rounds may start."""
        held = await self.organizer(tournament_id, token)
        if held.row.status != "registering":
            raise ServiceError(409, f"registration is already closed (the tournament is "
                               f"{held.row.status})")
        kept = [e for e, row in zip(held.domain_entrants(), held.entrants, strict=True)
                if row.approved]
        try:
            rounds_total(held.settings, kept)
        except TournamentError as error:  # too few entrants, or rounds out of range for them
            raise ServiceError(409, f"registration cannot close: {error.message}") from None
        await self.write(held, self.store.close(held.row))
        return await self.get(tournament_id)

    async def me(self, tournament_id: str, token: str | None) -> ts.MyTable:
        """The token's entrant, and its table, match and seat in the current round."""
        held, number = await self.player(tournament_id, token)
        entrant = entrant_info(held.entrants[number])
        if not held.rounds:
            return ts.MyTable(entrant=entrant, round=0)
        current, pairing = held.row.round, held.pairing(held.row.round)
        for table in pairing.tables:
            if number in table.seats:
                mid = held.rounds[current - 1].matches[table.number]
                # status_of gives a stored match row's status (or "missing"): text the store
                # writes only from TableStatus's values, not typed as that Literal.
                return ts.MyTable(entrant=entrant, round=current, table=table.number,
                                  match_id=mid, seat=table.seats.index(number),
                                  status=held.status_of(mid))  # type: ignore[arg-type]
        return ts.MyTable(entrant=entrant, round=current, bye=number in pairing.byes)

    async def withdraw(self, tournament_id: str, token: str | None) -> ts.EntrantInfo:
        """The token's entrant leaves: before round 1 it is removed (its name and place free);
        after, it is not paired again and its match this round is conceded."""
        held, number = await self.player(tournament_id, token)
        return await self.leave(held, number, "player", "")

    async def leave(self, held: Held, number: int, by: Actor, reason: str) -> ts.EntrantInfo:
        """An entrant leaves, by its own request or the organizer's (bots included)."""
        entrant = held.entrants[number]
        if held.row.status in ("finished", "cancelled"):
            raise ServiceError(409, f"the tournament is {held.row.status}: nobody can leave it")
        if entrant.withdrew_after is not None:
            raise ServiceError(409, f"entrant {number} ({entrant.name}) has already withdrawn")
        if not held.rounds:
            await self.write(held, self.store.remove(held.row, number))
            return ts.EntrantInfo(number=number, name=entrant.name, bot=entrant.bot,
                                  withdrew_after=0, approved=entrant.approved)
        action = Action(kind="withdraw", round=held.row.round, by=by, entrant=number,
                        reason=reason)
        await self.record(held, [action], withdraw={number: held.row.round})
        held = await self.concede_withdrawn(await self.held(held.row.tournament_id))
        return entrant_info(held.entrants[number])

    async def record(self, held: Held, actions: Sequence[Action], *,
                     withdraw: dict[int, int] | None = None, status: str | None = None) -> None:
        """Record actions (and what they change) at the revision read; 409 on a clash."""
        change = self.store.act(held.row, [msgspec.to_builtins(a) for a in actions],
                                withdraw=withdraw, status=status)
        await self.write(held, change)

    async def concede_withdrawn(self, held: Held) -> Held:
        """Concede, at every table of the current round in play, for each entrant that has
        withdrawn; the tournament re-read. Called after a withdrawal and after a round's tables
        are made, each reading the other's write, so an entrant withdrawing while its table is
        being set up is conceded by whichever comes second (a seat already out is left alone)."""
        if not held.rounds:
            return held
        current, gone = held.row.round, {e.number for e in held.entrants
                                          if e.withdrew_after is not None}
        conceded = False
        for table in held.pairing(current).tables:
            mid = held.rounds[current - 1].matches[table.number]
            for seat, number in enumerate(table.seats):
                if number in gone and held.status_of(mid) == "playing":
                    conceded = await self._concede(mid, seat) or conceded
        return await self.held(held.row.tournament_id) if conceded else held

    async def _concede(self, match_id: str, seat: int) -> bool:
        """Concede for a seat; False when it is out already or the match is over (409)."""
        try:
            await self.matches.concede_for(match_id, seat)
        except ServiceError as error:
            if error.status != 409:
                raise
            return False
        return True

    async def forfeit(self, tournament_id: str, number: int, table: int, token: str | None,
                      body: ts.Forfeit) -> ts.TableInfo:
        """The organizer concedes a table's match for one of its entrants (a no-show): recorded
        as a forfeit (not a game played), before the concession, so no round is paired from
        the result without it; at its N-th forfeit (settings) the entrant is withdrawn."""
        held = await self.organizer(tournament_id, token)
        seats = next((t.seats for t in held.pairing(number).tables if t.number == table), None)
        mid = held.table_match(number, table)
        if seats is None or body.entrant not in seats:
            raise ServiceError(422, f"entrant {body.entrant} does not sit at round {number} "
                               f"table {table} (its entrants: {seats})")
        if held.status_of(mid) != "playing" or number != held.row.round:
            raise ServiceError(409, f"round {number} table {table} is {held.status_of(mid)}, "
                               "not in play: there is nothing to forfeit")
        await self.forfeit_for(held, number, table, body.entrant, "organizer",
                               body.reason or "")
        held = await self.held(tournament_id)
        return next(t for t in tournament_info(held, None).rounds[number - 1].tables
                    if t.table == table)

    async def forfeit_for(self, held: Held, number: int, table: int, entrant: int, by: Actor,
                          reason: str) -> None:
        """Record a forfeit (and the withdrawal its count may bring), then concede the table's
        match for the entrant: recorded first, so no round is paired without it."""
        actions = [Action(kind="forfeit", round=number, by=by, entrant=entrant, table=table,
                          reason=reason)]
        withdraw = None
        if due_withdrawal(held.settings, [*held.actions(), *actions], entrant) and \
                held.entrants[entrant].withdrew_after is None:
            actions.append(Action(kind="withdraw", round=number, by="server", entrant=entrant,
                                  reason="forfeits_to_withdraw reached"))
            withdraw = {entrant: number}
        await self.record(held, actions, withdraw=withdraw)
        seats = next(t.seats for t in held.pairing(number).tables if t.number == table)
        if not await self._concede(held.table_match(number, table), seats.index(entrant)):
            await self.void_contradicted(await self.held(held.row.tournament_id))

    async def void_contradicted(self, held: Held) -> Held:
        """Void each recorded forfeit whose match ended on its own with the forfeiting entrant
        not placed last (it was over before the concession landed), so the result stands as
        played; called before anything is paired or finished from a round's results, at the
        revision read, so no pairing or bundle ever holds such a forfeit."""
        wrong = held.contradicted()
        if not wrong:
            return held
        for a in wrong:
            log.warning("tournament %s round %d table %d: the forfeit of entrant %s is void: "
                        "the match ended on its own first", held.row.tournament_id, a.round,
                        a.table, a.entrant)
        kept = [msgspec.to_builtins(a) for a in held.actions() if a not in wrong]
        await self.write(held, self.store.unrecord(held.row, kept))
        return await self.held(held.row.tournament_id)

    async def standings(self, tournament_id: str) -> ts.StandingsInfo:
        """The standings after every round whose tables have all finished."""
        held, seed = await self.matches.reads.recent(lambda on: self._standing(on, tournament_id))
        history = held.history(complete_only=True)
        lines = standings(held.settings, seed, held.domain_entrants(), history)
        return ts.StandingsInfo(tournament_id=held.row.tournament_id, after_round=len(history),
                                standings=msgspec.convert(rows(lines), list[StandingRow]))

    async def standings_csv(self, tournament_id: str) -> str:
        """The same standings as CSV."""
        held, seed = await self.matches.reads.recent(lambda on: self._standing(on, tournament_id))
        history = held.history(complete_only=True)
        return str(standings_csv(standings(held.settings, seed, held.domain_entrants(), history)))

    async def crosstable(self, tournament_id: str) -> ts.CrosstableInfo:
        """Every entrant's result in every whole round, in standing order."""
        held, seed = await self.matches.reads.recent(lambda on: self._standing(on, tournament_id))
        history = held.history(complete_only=True)
        table = crosstable(held.settings, seed, held.domain_entrants(), history)
        return ts.CrosstableInfo(tournament_id=held.row.tournament_id,
                                 after_round=len(history), table_size=held.settings.table_size,
                                 rows=table)

    async def crosstable_csv(self, tournament_id: str) -> str:
        """The crosstable as CSV."""
        info = await self.crosstable(tournament_id)
        return crosstable_csv(info.rows, info.table_size, info.after_round)

    async def trf(self, tournament_id: str) -> str:
        """The TRF-16 of a 2-seat tournament after its whole rounds (409 at larger tables)."""
        held, seed = await self.matches.reads.recent(lambda on: self._standing(on, tournament_id))
        if held.settings.table_size != 2:
            raise ServiceError(409, f"a TRF pairs two players a game; this tournament plays "
                               f"{held.settings.table_size}-seat tables (ask for its crosstable)")
        history = held.history(complete_only=True)
        rounds = held.total() or len(history)
        return trf_text(held.settings, seed, held.domain_entrants(), history, rounds,
                        name=held.row.name)

    async def _standing(self, on: EventStore, tournament_id: str) -> tuple[Held, bytes]:
        """The tournament and its seed as ``on``'s database holds them: standings are a
        stale-safe read, served by the standby within its lag bound (service.reads)."""
        store = self.store
        if on is not self.matches.store and isinstance(on, PostgresStore):
            store = TournamentStore(on.pool)
        held = await read(store, on, tournament_id)
        found = await store.secrets(held.row.tournament_id)
        if found is None:
            raise ServiceError(404, f"no tournament {held.row.tournament_id}")
        return held, found[0]

    async def refuse_tag(self, tag: str) -> None:
        """422 when a match would be tagged with a tournament run here: only its rounds make
        matches under its tag, so a listing or export by the tag holds its tables alone."""
        if await self.store.get(tag) is not None:
            raise ServiceError(422, f"tournament: {tag} is a tournament run on this server; its "
                               "tables are made by its rounds (POST /tournaments/{id}/rounds), "
                               "not by POST /matches")

    async def held(self, tournament_id: str) -> Held:
        """The tournament as stored now; 404 when there is none."""
        return await read(self.store, self.matches.store, tournament_id)

    async def seed(self, held: Held) -> bytes | None:
        """The tournament's seed once it is finished, else None."""
        if held.row.status != "finished":
            return None
        return await self.lot_seed(held)

    async def lot_seed(self, held: Held) -> bytes:
        """The secret seed, for the server's own draws (never answered while it runs)."""
        found = await self.store.secrets(held.row.tournament_id)
        if found is None:
            raise ServiceError(404, f"no tournament {held.row.tournament_id}")
        return found[0]

    async def organizer(self, tournament_id: str, token: str | None) -> Held:
        """The tournament, for its organizer's token: 401 without a valid token, 403 for a
        player's."""
        held = await self.held(tournament_id)
        if token is None:
            raise unauthorized(NEEDS_ORGANIZER)
        found = await self.store.secrets(held.row.tournament_id)
        if found is not None and auth.same_token(token, found[1]):
            return held
        taken = await self.store.entrant_for_token(held.row.tournament_id, auth.token_hash(token))
        if taken is not None:
            raise forbidden("a player token cannot do this: it needs the organizer token")
        raise unauthorized("the token is not valid for this tournament")

    async def player(self, tournament_id: str, token: str | None) -> tuple[Held, int]:
        """The tournament and the token's entrant number: 401 without a player's token, 403
        for the organizer's."""
        held = await self.held(tournament_id)
        if token is None:
            raise unauthorized("this needs a player token: send 'Authorization: Bearer <token>'")
        number = await self.store.entrant_for_token(held.row.tournament_id, auth.token_hash(token))
        if number is not None:
            return held, number
        found = await self.store.secrets(held.row.tournament_id)
        if found is not None and auth.same_token(token, found[1]):
            raise forbidden("the organizer token is not an entrant's: register to play")
        raise unauthorized("the token is not valid for this tournament")

    async def write(self, held: Held, change: Awaitable[object]) -> None:
        """Await a store change; a revision clash is a 409 naming the tournament."""
        try:
            await change
        except RevisionConflict:
            raise changed(held.row.tournament_id) from None



def settings_of(body: ts.CreateTournament) -> Settings:
    """The tournament's settings from the request, checked against the game (422 otherwise)."""
    game = game_of(body.game)
    version = body.rules_version or game.rules_version
    try:
        game = lookup(body.game, version)
    except UnknownRules as error:
        raise ServiceError(422, f"rules_version {version!r}: {error.message}") from None
    settings = Settings(game=game.id, rules_version=game.rules_version, options=body.options,
                        table_size=body.table_size, format=body.format, rounds=body.rounds,
                        seeding=body.seeding, turn_seconds=body.turn_seconds,
                        max_entrants=body.max_entrants, approval=body.approval,
                        forfeits_to_withdraw=body.forfeits_to_withdraw,
                        tiebreaks=None if body.tiebreaks is None else list(body.tiebreaks),
                        pairing=body.pairing or default_pairing(body),
                        timeouts_to_forfeit=body.timeouts_to_forfeit,
                        late_entry_rounds=body.late_entry_rounds)
    try:
        check_settings(settings, game.min_seats, game.max_seats)
    except TournamentError as error:
        raise ServiceError(422, error.message) from None
    with rule_errors():  # the options and the clock, as each table's match will be opened
        match.open_match(game, seats=settings.table_size, options=settings.options,
                         practice=False, tournament=None, label=None, seed_commitment="",
                         turn_seconds=settings.turn_seconds)
    return settings


def default_pairing(body: ts.CreateTournament) -> Literal["dutch"] | None:
    """A 2-seat Swiss pairs by FIDE's Dutch system unless the organizer says otherwise."""
    return "dutch" if body.format == "swiss" and body.table_size == 2 else None


def bot_names(settings: Settings) -> tuple[str, ...]:
    """The server-side bots of the tournament's game."""
    from domain.core.bots import bot_names as of_game

    return tuple(of_game(lookup(settings.game, settings.rules_version)))


def changed(tournament_id: str) -> ServiceError:
    """409: another request changed the tournament first; nothing was written."""
    return ServiceError(409, f"tournament {tournament_id} {CLASH} (another request "
                        "was written first); read it again and retry")
