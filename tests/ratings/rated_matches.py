"""Rated finished matches of Wick & Ember, recorded as the server records them, and written
straight into a database: seats taken by server bots (random, careful) or by players, random
legal play (fixed seeds), about 10 ms a match, so a thousand are quick to make."""

from __future__ import annotations

import hashlib
import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from domain.core import match
from domain.core.chain import GENESIS, link
from domain.games import GAMES
from projections.summary import summary
from service.matches import new_events
from service.store import StoredEvent
from tests.replay.random_matches import Played, insert_finished

GAME = GAMES["wick-and-ember"]
BOTS = ("random", "careful")
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def rated(index: int, players: tuple[str, ...] = (), seats: int | None = None,
          rated: bool = True) -> Played:
    """Rated match ``index``: ``players`` in the first seats, bots drawn at random in the rest."""
    chooser = random.Random(f"rated {index}")
    seats = seats or chooser.randint(max(2, len(players)), 4)
    seed = hashlib.sha256(f"rated seed {index}".encode()).digest()
    created = match.open_match(GAME, seats=seats, options={"match_length": "short"},
                               practice=False, tournament=None, label=None,
                               seed_commitment=hashlib.sha256(seed).hexdigest(), rated=rated)
    record = Record(index)
    record.add([created], None, None)
    state: Any = match.evolve(GAME, None, created)
    joins = [match.JoinSeat(name=f"P{seat}", player=player)
             for seat, player in enumerate(players)]
    joins += [match.JoinSeat(name="", bot=chooser.choice(BOTS))
              for _ in range(seats - len(players))]
    for seat, command in [*((None, join) for join in joins), (None, match.StartMatch())]:
        state = record.play(state, seat, command, seed)
    while match.status(GAME, state) != "finished":
        seat = chooser.choice(GAME.acting(state.game))
        state = record.play(state, seat, chooser.choice(GAME.legal_actions(state.game, seat)),
                            seed)
    return record.played(seed, summary(GAME, state, seed))


class Record:
    """Stored events as the server writes them: metadata, hash chain, increasing times."""

    def __init__(self, index: int) -> None:
        self.match_id = str(uuid.UUID(int=random.Random(f"id {index}").getrandbits(128),
                                      version=4))
        self.started = EPOCH + timedelta(minutes=index)
        self.events: list[StoredEvent] = []
        self.head = GENESIS

    def play(self, state: Any, seat: int | None, command: Any, seed: bytes) -> Any:
        """Decide a command, record its events, return the state after them."""
        events = match.decide(GAME, state, seat, command, seed)
        self.add(events, seat, command)
        return match.fold(GAME, events, state)

    def add(self, events: list[Any], seat: int | None, command: Any) -> None:
        """Append one command's events."""
        command_id = None if command is None else f"c{len(self.events)}"
        for new in new_events(events, seat=seat, command=command, command_id=command_id):
            self.head = link(self.head, new.data)
            version = len(self.events) + 1
            self.events.append(StoredEvent(
                match_id=self.match_id, version=version, type=new.type, data=new.data,
                metadata=new.metadata, recorded_at=self.started + timedelta(milliseconds=version),
                hash=self.head))

    def played(self, seed: bytes, finished: Any) -> Played:
        """The finished match."""
        return Played(match_id=self.match_id, server_seed=seed, summary=finished,
                      events=self.events, created_at=self.started,
                      finished_at=self.events[-1].recorded_at, tournament=None)


async def written(pool: asyncpg.Pool, matches: list[Played]) -> None:
    """Copy finished matches straight into a migrated database."""
    async with pool.acquire() as conn:
        await insert_finished(conn, matches)
