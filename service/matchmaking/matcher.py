"""The matching loop: every few seconds each server process forms tables from the queue and
sets up their matches.

A pass first sets up any table formed earlier whose match is still owed (a process that crashed
between claiming its players and starting their match), then, game by game, claims the waiting
players in one transaction (service/store/queue.py, ``QueueStore.claim``), reads their ratings,
runs the pure matcher (domain/matchmaking.py) and seats each table; after the commit it makes
each table's match (rated as asked, private so nobody else sits there), seats the players with
their player ids (their own tokens then act there) and the bots of the fill, and starts it.
Each step is written at the version it was read at, so two processes setting up the same table
never take a seat twice. docs/matchmaking.md.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Protocol

from domain.core import match
from domain.core.bots import bot_names
from domain.matchmaking import Entry, Settings, Table, match_entries
from service import auth, schemas
from service.background import Retry, Sweeping
from service.errors import ServiceError
from service.loading import game_of
from service.matches import MatchService
from service.matchmaking.queue import Bell
from service.sources import Clock
from service.store.queue import Clashed, QueueRow, QueueStore, TableRow

log = logging.getLogger("hearthlog.matchmaking")
SETUP_SPARE = 3  # steps beyond a seat each and the start, for clashes with another set-up
RECOVER_AFTER = timedelta(seconds=10)  # a table owed this long was left by its process
GIVE_UP_AFTER = timedelta(minutes=10)  # a table still not set up: its players let go
TURN_SECONDS = 120  # a table's turn clock: strangers' tables must not stall on one who left


class Rating(Protocol):
    """A subject's rating (service.ratings.Rating): what the matcher reads of it."""

    @property
    def mu(self) -> float:
        """The estimate."""

    @property
    def sigma(self) -> float:
        """Its uncertainty."""


class Ratings(Protocol):
    """Current ratings by game (service.ratings.RatingService)."""

    async def current(self, game: str, subjects: list[str]) -> Mapping[str, Rating]:
        """Each subject's rating (a default one for a subject with none)."""


class Matchmaker:
    """One matching pass at a time: form, seat, set up."""

    def __init__(self, store: QueueStore, matches: MatchService, ratings: Ratings, *,
                 settings: Settings, clock: Clock, bell: Bell,
                 turn_seconds: int | None = TURN_SECONDS) -> None:
        self.store, self.matches, self.ratings = store, matches, ratings
        self.settings, self.clock, self.bell = settings, clock, bell
        self.turn_seconds = turn_seconds  # every table's turn clock (None: none)
        self.failures = Retry(log)  # tables whose set-up failed: logged once a minute

    async def run_pass(self) -> list[str]:
        """Set up the tables owed (giving up those owed too long), then form and set up new
        ones; their match ids."""
        owed = await self.owed()
        formed: list[TableRow] = []
        for game in await self.store.games_waiting():
            formed.extend(await self.form(game))
        done = []
        for table in [*owed, *formed]:
            try:
                await self.set_up(table)
                done.append(table.match_id)
            except Exception:  # left owed: a later pass (of any process) sets it up
                self.failures.failed(table.match_id, "setting up matchmaking table %s failed",
                                     table.match_id)
        return done

    async def owed(self) -> list[TableRow]:
        """The tables a process left unset for RECOVER_AFTER; one unset for GIVE_UP_AFTER
        (its set-up failed again and again) is given up: its players are out of the queue, free
        to ask again, rather than held at a table that never starts."""
        now, owed = self.clock(), []
        for table in await self.store.owed(now - RECOVER_AFTER):
            if table.formed_at > now - GIVE_UP_AFTER:
                owed.append(table)
            elif await self.store.give_up(table.match_id):
                log.warning("matchmaking table %s could not be set up in %s; its players are "
                            "out of the queue", table.match_id, GIVE_UP_AFTER)
        return owed

    async def form(self, game: str) -> list[TableRow]:
        """Claim and seat the tables the game's waiting players form now (none when another
        process is matching this game, or a player left or was seated meanwhile)."""
        now = self.clock()
        try:
            async with self.store.claim(game) as claim:
                rows = await claim.waiting() if claim else []
                if not claim or not rows:
                    return []
                ratings = await self.ratings.current(game, [row.player_id for row in rows])
                found = match_entries([entry_of(row, ratings.get(row.player_id), now)
                                       for row in rows], self.settings)
                names = {row.player_id: row.name for row in rows}
                tables = [table_row(table, names, now) for table in found]
                await claim.seat(tables)
        except Clashed:
            return []  # nothing written; the next pass reads the queue again
        return tables

    async def set_up(self, table: TableRow) -> None:
        """Make the table's match, seat its players and bots, start it; each step once."""
        mid, seats = table.match_id, len(table.players) + table.bots
        body = schemas.CreateMatch(game=table.game, seats=seats, options=table.options,
                                   label="matchmaking", rated=table.rated, private=True,
                                   turn_seconds=self.turn_seconds)
        await self.matches.open_table(game_of(table.game), body, mid,
                                      auth.token_hash(auth.new_token()))
        for _ in range(seats + 1 + SETUP_SPARE):
            loaded = await self.matches.cache.load(mid)
            if not isinstance(loaded.state, match.Lobby):
                await self.store.started(mid, self.clock())
                self.bell.ring()
                return
            try:
                await self.next_step(table, loaded.state, loaded.version)
            except ServiceError as error:
                if error.status != 409:  # another process took this step first: look again
                    raise
        raise ServiceError(503, f"matchmaking table {mid} could not be set up; try again")

    async def next_step(self, table: TableRow, lobby: match.Lobby, version: int) -> None:
        """Seat the next player (or bot), or start the full table, at ``version``."""
        taken, mid = len(lobby.names), table.match_id
        if taken == len(table.players) + table.bots:
            await self.matches.begin(mid, expected=version)
        elif taken < len(table.players):
            player, name = table.players[taken]
            command = match.JoinSeat(name=name, player=player)
            await self.matches.take_seat(mid, command, None, expected=version)
        else:
            command = match.JoinSeat(name="", bot=table.bot)
            await self.matches.take_seat(mid, command, None, expected=version)


class MatchingLoop(Sweeping):
    """The matchmaker's pass every ``interval`` seconds (HEARTHLOG_QUEUE_SECONDS, 1 by default)."""

    name = "hearthlog-matchmaking"
    failure = "a matchmaking pass failed; trying again"

    def __init__(self, matchmaker: Matchmaker, interval: float | None = None) -> None:
        self.matchmaker = matchmaker
        self.interval = interval or float(os.environ.get("HEARTHLOG_QUEUE_SECONDS") or 1.0)
        self.retry = Retry(log, first=self.interval, cap=max(self.interval, 30.0))

    async def sweep(self) -> None:
        """One pass."""
        await self.matchmaker.run_pass()


def turn_clock() -> int | None:
    """The tables' turn clock: HEARTHLOG_QUEUE_TURN_SECONDS (0: none), else TURN_SECONDS."""
    given = os.environ.get("HEARTHLOG_QUEUE_TURN_SECONDS")
    return (int(given) if given else TURN_SECONDS) or None


def entry_of(row: QueueRow, rating: Rating | None, now: datetime) -> Entry:
    """A queue row as the matcher's entry, with its rating and seconds waited at ``now``."""
    rated = {"mu": rating.mu, "sigma": rating.sigma} if rating is not None else {}
    return Entry(player=row.player_id, game=row.game, seats_min=row.seats_min,
                 seats_max=row.seats_max, rated=row.rated, options=row.options, bots=row.bots,
                 waited=(now - row.joined_at) / timedelta(seconds=1), **rated)


def table_row(table: Table, names: Mapping[str, str], now: datetime) -> TableRow:
    """A formed table as the row to claim, under a new match id; its bots the game's own bot
    when it has one (the last named), else the random one."""
    return TableRow(match_id=str(uuid.uuid4()), game=table.game, rated=table.rated,
                    options=table.options, players=[(p, names[p]) for p in table.players],
                    bots=table.bots, bot=bot_names(game_of(table.game))[-1] if table.bots else None,
                    formed_at=now)
