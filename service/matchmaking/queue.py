"""The play queue's use cases: join, leave, where am I, and the stream that says when seated.

A player (by its token, service.players) waits in one row of the queue store at most; the
matcher (service/matchmaking/matcher.py) seats it. docs/matchmaking.md.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import secrets
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

import msgspec

from domain.core import match
from domain.matchmaking import Entry, Settings, window
from service import tickets
from service.errors import ServiceError, unauthorized
from service.loading import game_of
from service.matches import MatchService, rule_errors
from service.matchmaking.schemas import JoinQueue, QueueStatus, QueueTicket, SeatRange
from service.sources import Clock
from service.store.queue import AlreadyQueued, QueueRow, QueueStore

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
TICKET = re.compile(rf"({UUID})\.([0-9]{{1,12}})\.([0-9a-f]{{64}})", re.ASCII)


class Player(Protocol):
    """Who a player token names (service.players.Player)."""

    @property
    def player_id(self) -> str:
        """Its id."""

    @property
    def name(self) -> str:
        """Its name, the name of its seats."""


class Players(Protocol):
    """Players by their tokens (service.players.PlayerService)."""

    async def authenticate(self, token: str | None) -> Player:
        """The token's player, or a 401 naming the problem."""


class Bell:
    """Rung by this process's matcher when it seats players: its followers look at once (the
    others' seatings are seen within a poll)."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def ring(self) -> None:
        """Wake every follower waiting now."""
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, seconds: float) -> None:
        """Until the next ring, or ``seconds``."""
        try:
            await asyncio.wait_for(self._event.wait(), seconds)
        except TimeoutError:
            pass


class QueueService:
    """The queue's routes over the queue store; ``poll`` seconds between a follower's looks,
    a heartbeat after ``heartbeat`` seconds without news."""

    def __init__(self, store: QueueStore, players: Players, matches: MatchService, *,
                 settings: Settings, clock: Clock, bell: Bell, poll: float = 1.0,
                 heartbeat: float = 15.0) -> None:
        self.store, self.players, self.matches, self.settings = store, players, matches, settings
        self.clock, self.bell, self.poll = clock, bell, poll
        self.quiet_polls = max(1, round(heartbeat / poll))

    async def join(self, token: str | None, body: JoinQueue) -> QueueStatus:
        """Queue the player (409 if it waits already, naming since when)."""
        player = await self.players.authenticate(token)
        low, high, options = checked(body)
        row = QueueRow(player_id=player.player_id, name=player.name, game=body.game,
                       seats_min=low, seats_max=high, rated=body.rated, options=options,
                       bots=body.bots, ticket_key=secrets.token_bytes(32),
                       joined_at=self.clock())
        try:
            return self.status_of(await self.store.join(row))
        except AlreadyQueued as clash:
            raise already(clash.row) from None

    async def leave(self, token: str | None) -> None:
        """Leave the queue now; 409 if a table was formed for the player, 404 if not queued."""
        player = await self.players.authenticate(token)
        if await self.store.leave(player.player_id):
            return
        row = await self.queued(player.player_id)
        raise ServiceError(409, f"too late to leave: you are seated in match {row.match_id} "
                           f"(seat {row.seat})", match_id=row.match_id, seat=row.seat)

    async def status(self, token: str | None) -> QueueStatus:
        """Where the player is: waiting, forming or seated (404 if it never queued)."""
        player = await self.players.authenticate(token)
        return self.status_of(await self.queued(player.player_id))

    async def ticket(self, token: str | None) -> QueueTicket:
        """A ticket for the queue stream, valid for tickets.LIFETIME seconds."""
        row = await self.queued((await self.players.authenticate(token)).player_id)
        expires = int(self.clock().timestamp()) + tickets.LIFETIME
        signed = tickets.mac(f"queue:{row.player_id}", 0, expires, row.ticket_key)
        return QueueTicket(ticket=f"{row.player_id}.{expires}.{signed}",
                           expires_at=datetime.fromtimestamp(expires, self.clock().tzinfo))

    async def follower(self, token: str | None, ticket: str | None) -> str:
        """The player a stream follows, by its token or its ticket (400, 401 or 404 before it)."""
        if ticket is not None and token is not None:
            raise ServiceError(400, "send a stream ticket or a token, not both")
        if ticket is None:
            return (await self.queued((await self.players.authenticate(token)).player_id)
                    ).player_id
        found = TICKET.fullmatch(ticket)
        row = found and await self.store.get(found[1])
        if not found or row is None or not ticket_valid(row, int(found[2]), found[3],
                                                        self.clock().timestamp()):
            raise unauthorized("the stream ticket is not valid (or expired); ask for a new one "
                               "with POST /queue/stream-ticket")
        return row.player_id

    async def follow(self, player_id: str) -> AsyncIterator[QueueStatus | None]:
        """Each new status of the player (None: nothing new for a while, a heartbeat), until it
        is seated or leaves."""
        last, quiet = None, 0
        while True:
            row = await self.store.get(player_id)
            if row is None:
                return
            status = self.status_of(row)
            if status.status != getattr(last, "status", None):
                yield status
                last, quiet = status, 0
            elif (quiet := quiet + 1) >= self.quiet_polls:
                yield None
                quiet = 0
            if status.status == "seated":
                return
            await self.bell.wait(self.poll)

    async def queued(self, player_id: str) -> QueueRow:
        """The player's queue row, or 404: none, or its seat's match is over (the seat is the
        player's history now, GET /players/{id}/matches)."""
        row = await self.store.get(player_id)
        if row is None or (row.seated_at is not None and row.match_id is not None
                           and (await self.matches.summary(row.match_id)).status == "finished"):
            raise ServiceError(404, "you are not in the queue: join it with POST /queue")
        return row

    def status_of(self, row: QueueRow) -> QueueStatus:
        """The row as the player sees it."""
        waited = (self.clock() - row.joined_at) / timedelta(seconds=1)
        state: Literal["waiting", "forming", "seated"] = "waiting"
        if row.match_id is not None:
            state = "forming" if row.seated_at is None else "seated"
        return QueueStatus(
            status=state, game=row.game, seats=SeatRange(min=row.seats_min, max=row.seats_max),
            rated=row.rated, options=row.options, bots=row.bots, waiting_since=row.joined_at,
            window=window(Entry(player=row.player_id, game=row.game, seats_min=row.seats_min,
                                seats_max=row.seats_max, rated=row.rated, waited=waited),
                          self.settings),
            match_id=row.match_id, seat=row.seat, seated_at=row.seated_at)


def checked(body: JoinQueue) -> tuple[int, int, dict[str, Any]]:
    """The table sizes asked for and the options that differ from the game's defaults (so a
    default spelled out or left out is one pool), checked against the game at every size (4xx
    naming the problem otherwise)."""
    low, high = (body.seats, body.seats) if isinstance(body.seats, int) else (
        body.seats.min, body.seats.max)
    if low > high:
        raise ServiceError(400, f"seats.min ({low}) is above seats.max ({high})")
    game = game_of(body.game)
    with rule_errors():
        for seats in range(low, high + 1):  # each size: seats and options as a match checks them
            match.open_match(game, seats=seats, options=body.options, practice=False,
                             tournament=None, label=None, seed_commitment="")
        given = msgspec.to_builtins(match.decode_options(game, body.options))
    usual = msgspec.to_builtins(match.decode_options(game, {}))
    return low, high, {name: value for name, value in given.items() if usual.get(name) != value}


def already(row: QueueRow) -> ServiceError:
    """409: the player waits, or its table is being set up."""
    if row.match_id is None:
        return ServiceError(409, f"you are already in the queue for {row.game}, since "
                            f"{row.joined_at.isoformat()}: leave it first (DELETE /queue)")
    return ServiceError(409, f"a table was formed for you (match {row.match_id}); it is being "
                        "set up", match_id=row.match_id)


def ticket_valid(row: QueueRow, expires: int, signature: str, now: float) -> bool:
    """Whether a queue ticket was issued for this row and has not expired."""
    expected = tickets.mac(f"queue:{row.player_id}", 0, expires, row.ticket_key)
    return now < expires and hmac.compare_digest(expected, signature)

