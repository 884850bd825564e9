"""The composition root: everything a server process serves with, made in one place at start-up.

``bootstrap`` migrates the database, opens the pool (and a read standby's, when one is
configured), makes the application's services and starts the loops that run beside the requests:
the notification listener, the clock's sweep, the tournaments' sweep and the standby's probe. It
yields one frozen ``Services``; on shutdown it stops the loops and closes the pools. The routes
reach it through ``services(app)`` and nowhere else (docs/architecture.md).

Who hears what is said here, in the constructors: the hub tells the state cache and the bot
runner of every committed append; the sweep hands due matches to the bot runner.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import asyncpg
from litestar import Litestar

from domain.matchmaking import Settings as QueueSettings
from service.apps import OPERATOR_TOKEN, AppService
from service.background import Background
from service.http.limits import Limits, StreamSlots
from service.http.serving import pool_size
from service.live.bots import BotRunner
from service.live.hub import Hub, Listener, Settings
from service.live.probing import Probing
from service.live.sweep import Sweep
from service.matches import MatchService
from service.matchmaking.matcher import MatchingLoop, Matchmaker, turn_clock
from service.matchmaking.queue import Bell, QueueService
from service.players import PlayerService
from service.ratings import Rater, RatingService
from service.reads import Reads, RoutedExports
from service.sources import Clock, SeedSource
from service.store import PostgresStore
from service.store.apps import AppStore
from service.store.migrations import apply_migrations
from service.store.players import PlayerStore
from service.store.provisioning import create_pool
from service.store.queue import QueueStore
from service.store.ratings import RatingStore
from service.store.replica import ReadSettings, Standby
from service.store.tournaments import TournamentStore
from service.tournament.rounds import Rounds, TournamentSweep
from service.tournament.tournaments import TournamentService


@dataclass(frozen=True)
class Services:
    """What the routes serve with, made once per process by ``bootstrap``."""

    pool: asyncpg.Pool  # the primary's
    matches: MatchService
    exports: RoutedExports  # finished matches' exports and replays, each on the database it suits
    tournaments: TournamentService
    rounds: Rounds
    hub: Hub  # live play: one feed per followed match
    live: Settings  # bot delay, heartbeat, sweep interval
    limits: Limits
    stream_slots: StreamSlots  # open streams, per caller and in all
    players: PlayerService  # players: their tokens, names, matches and tournaments
    apps: AppService  # client apps: their keys and quotas (the front asks it)
    queue: QueueService  # the play queue (its matching loop runs among the loops)
    ratings: RatingService  # leaderboards, histories, exports; each subject's current rating


def services(app: Litestar) -> Services:
    """The services of a running app: the one place that reads them from the app's state."""
    found: Services = app.state.services
    return found


def started(app: Litestar) -> Services | None:
    """The services once the app's lifespan has made them; None before, or with no database
    (the front asks on every request, before and after)."""
    found: Services | None = getattr(app.state, "services", None)
    return found


@asynccontextmanager
async def bootstrap(
    database_url: str, read_url: str | None, limits: Limits, *, seeds: SeedSource, clock: Clock,
    listen_url: str | None = None,
) -> AsyncIterator[Services]:
    """Migrate, connect and start everything; stop and close it all on the way out. ``seeds``
    draws every match's and tournament's secret seed; ``clock`` tells the time. ``listen_url``,
    a direct connection to the primary when ``database_url`` is a pooler's (docs/scaling.md),
    takes the sessions a pooler cannot: the migrations' advisory lock and the LISTEN."""
    direct = listen_url or database_url
    await apply_migrations(direct)
    pool = await create_pool(database_url, max_size=pool_size())
    try:
        async with _reads(pool, read_url, clock) as reads:
            players = PlayerStore(pool, clock=clock)
            matches = MatchService(reads.primary, limits.lobby_hours, reads, seeds=seeds,
                                   clock=clock, players=players)
            tournaments = TournamentService(TournamentStore(pool, clock=clock), matches,
                                            seeds=seeds)
            rounds = Rounds(tournaments)
            live = Settings.from_env()
            bots = BotRunner(matches, live.bot_delay)
            ratings = RatingService(RatingStore(pool))
            queue, matching = _queue(pool, matches, PlayerService(players), ratings, clock, live)
            rater = Rater(ratings)  # told of every append: a finished rated match is rated
            hub = Hub(listeners=(matches.cache, bots, rater))  # a cached state is old
            loops: list[Background] = [
                Listener(direct, hub),
                Sweep(matches.store, bots, live.bot_delay, live.sweep),
                TournamentSweep(rounds, live.sweep),
                matching,
                rater,
            ]
            if reads.standby is not None:
                loops.append(Probing(reads.standby))
            for loop in loops:
                loop.start()
            try:
                yield Services(pool=pool, matches=matches, exports=RoutedExports(reads),
                               tournaments=tournaments, rounds=rounds,
                               hub=hub, live=live, limits=limits,
                               players=PlayerService(players),
                               stream_slots=StreamSlots(limits), queue=queue,
                               apps=AppService(AppStore(pool), os.environ.get(OPERATOR_TOKEN),
                                               now=lambda: clock().timestamp()),
                               ratings=ratings)
            finally:
                for loop in reversed(loops):
                    await loop.stop()
                await bots.stop()
    finally:
        await pool.close()


def _queue(pool: asyncpg.Pool, matches: MatchService, players: PlayerService,
           ratings: RatingService, clock: Clock, live: Settings,
           ) -> tuple[QueueService, MatchingLoop]:
    """The play queue (players by their tokens) and its matching loop (docs/matchmaking.md),
    whose pass reads the current ratings, seats players and rings this process's followers."""
    store, bell, settings = QueueStore(pool), Bell(), QueueSettings()
    service = QueueService(store, players, matches, settings=settings, clock=clock, bell=bell,
                           heartbeat=live.heartbeat)
    maker = Matchmaker(store, matches, ratings, settings=settings, clock=clock, bell=bell,
                       turn_seconds=turn_clock())
    return service, MatchingLoop(maker)


@asynccontextmanager
async def _reads(pool: asyncpg.Pool, url: str | None, clock: Clock) -> AsyncIterator[Reads]:
    """Where stale-safe reads go: a standby probed for its lag (``url``), else the primary
    (whose store records times by ``clock``)."""
    primary = PostgresStore(pool, clock=clock)
    if not url:
        yield Reads(primary)
        return
    standby = await Standby.open(url, pool, ReadSettings.from_env())
    try:
        yield Reads(primary, standby)
    finally:
        await standby.close()
