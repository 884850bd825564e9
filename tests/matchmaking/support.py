"""What the queue tests share: the queue's services on a pool, players by token, fixed ratings."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

import asyncpg
import msgspec

from domain.core import match
from domain.matchmaking import Settings
from projections.ratings import Rating, default_rating
from service.errors import unauthorized
from service.matches import MatchService
from service.matchmaking.matcher import Matchmaker
from service.matchmaking.queue import Bell, QueueService
from service.matchmaking.schemas import JoinQueue
from service.players import Player
from service.store import PostgresStore
from service.store.queue import QueueStore
from tests.core.sources import StoppedClock

GAME = "wick-and-ember"
SETTINGS = Settings(start=2.0, growth=0.5, widest=20.0, bots_after=60.0)


def player(name: str) -> Player:
    """A player whose token is ``token-<name>``."""
    return Player(player_id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"player:{name}")), name=name,
                  app_id=None)


@dataclass
class Players:
    """Players by token (the real PlayerService is tested on its own)."""

    known: dict[str, Player] = field(default_factory=dict)

    def add(self, name: str) -> str:
        """Make a player; its token."""
        self.known[f"token-{name}"] = player(name)
        return f"token-{name}"

    async def authenticate(self, token: str | None) -> Player:
        """The token's player, or 401."""
        if token not in self.known:
            raise unauthorized("the token is no player's")
        return self.known[token]


@dataclass
class Ratings:
    """Fixed ratings by subject; the default for any other."""

    mus: Mapping[str, float] = field(default_factory=dict)

    async def current(self, game: str, subjects: list[str]) -> dict[str, Rating]:
        """Each subject's rating."""
        base = default_rating()
        return {s: Rating(mu=self.mus.get(s, base.mu), sigma=base.sigma, games=0,
                          provisional=True) for s in subjects}


@dataclass
class Queue:
    """One server process's queue: its use cases and its matchmaker, on its own pool."""

    service: QueueService
    maker: Matchmaker
    matches: MatchService
    players: Players


def queue_on(pool: asyncpg.Pool, clock: StoppedClock, players: Players | None = None,
             ratings: Ratings | None = None) -> Queue:
    """The queue's services as bootstrap makes them, over ``pool``."""
    matches = MatchService(PostgresStore(pool, clock=clock), clock=clock)
    store, bell, players = QueueStore(pool), Bell(), players or Players()
    service = QueueService(store, players, matches, settings=SETTINGS, clock=clock, bell=bell,
                           poll=0.01)
    maker = Matchmaker(store, matches, ratings or Ratings(), settings=SETTINGS, clock=clock,
                       bell=bell)
    return Queue(service, maker, matches, players)


def ask(seats: int | tuple[int, int] = 2, **fields: object) -> JoinQueue:
    """A queue request for the test game."""
    wanted = seats if isinstance(seats, int) else {"min": seats[0], "max": seats[1]}
    return msgspec.convert({"game": GAME, "seats": wanted, **fields}, JoinQueue)


async def seated_players(queue: Queue, match_id: str) -> tuple[str | None, ...]:
    """Each seat's player id in a started match (None: a bot's seat)."""
    loaded = await queue.matches.cache.load(match_id)
    assert isinstance(loaded.state, match.Table), loaded.state
    return loaded.state.players
