"""Who a token is in a match, and what it may do: the seat and host checks, written once.

A token is a seat's (from joining) or the host's (from creating), stored only as a hash; a
player's token (service.players) also acts for the seat that player took, asked only when the
token is neither of the match's own. Every use case asks here: ``seat`` to act (401 without a
valid token, 403 for the host's), ``viewer`` to see (a spectator without a token or with the
host's), ``host`` to start the match, and ``own_seat`` for a seat's past views while the match
runs.
"""

from __future__ import annotations

import msgspec

from service import auth, tickets
from service.errors import forbidden, not_found, unauthorized
from service.logs import current_seat
from service.sources import Clock, wall_clock
from service.store import Secrets
from service.store.lru import Lru
from service.store.players import PlayerStore

NEEDS_TOKEN = "send 'Authorization: Bearer <token>'"
SEATS_KNOWN = 20_000  # seat tokens remembered per process (as the store keeps their hashes)


class Caller(msgspec.Struct, frozen=True, kw_only=True):
    """A valid token of a match: a seat's (``seat``) or the host's (``host``)."""

    seat: int | None = None
    host: bool = False


class Access:
    """The token checks of every use case, over one event store; ``clock`` tells when a stream
    ticket is issued and whether it has expired (service.sources); ``players``, where players
    are kept, lets a player's token act for the seat it took in a match."""

    def __init__(self, store: Secrets, clock: Clock = wall_clock,
                 players: PlayerStore | None = None) -> None:
        self.store, self.clock = store, clock
        self._seats = Lru(SEATS_KNOWN)  # (match id, seat token) -> Caller
        self.players = players

    async def caller(self, match_id: str, token: str) -> Caller:
        """Whose token this is in the match; 404 for no match, 401 for nobody's. A seat's
        token is remembered by the token itself (a seat's token never changes), so a seat's
        next request costs no hash and no look-up (docs/benchmarks.md, issue 33)."""
        known: Caller | None = self._seats.get((match_id, token))
        if known is not None:
            return known
        seat = await self.store.seat_for_token(match_id, auth.token_hash(token))
        if seat is not None:
            known = Caller(seat=seat)
            self._seats.put((match_id, token), known)
            return known
        host_hash = await self.store.host_token_hash(match_id)
        if host_hash is None:
            raise not_found(match_id)
        if auth.same_token(token, host_hash):
            return Caller(host=True)
        if self.players is not None:  # no seat's token: a player's that took a seat here?
            seat = await self.players.seat_for_token(match_id, auth.token_hash(token))
            if seat is not None:  # remembered too: a player's seat in a match never changes
                known = Caller(seat=seat)
                self._seats.put((match_id, token), known)
                return known
        raise unauthorized("the token is not valid for this match")

    async def seat(self, match_id: str, token: str | None) -> int:
        """The seat a token acts for; 401 without a valid token, 403 for the host's."""
        if token is None:
            raise unauthorized(f"this needs a seat token: {NEEDS_TOKEN}")
        caller = await self.caller(match_id, token)
        if caller.seat is None:
            raise forbidden("the host token cannot act for a seat; join a seat to play")
        current_seat.set(caller.seat)
        return caller.seat

    async def viewer(self, match_id: str, token: str | None) -> int | None:
        """The seat a viewer sees as: its own with a seat token, the spectator's otherwise."""
        if token is None:
            return None
        caller = await self.caller(match_id, token)
        if caller.seat is not None:
            current_seat.set(caller.seat)
        return caller.seat

    async def ticket_seat(self, match_id: str, ticket: str) -> int:
        """The seat a stream ticket was issued to; 401 for a malformed, forged or expired one."""
        claimed = tickets.parse(ticket)
        if claimed is None:
            raise unauthorized("the stream ticket is malformed: ask POST .../stream-ticket")
        seat, expires, signature = claimed
        key = await self.store.seat_token_hash(match_id, seat)
        if key is None and await self.store.host_token_hash(match_id) is None:
            raise not_found(match_id)
        if not tickets.valid(match_id, seat, expires, signature, key, self._now()):
            raise unauthorized("the stream ticket is not valid for this match or has expired: "
                               "ask POST .../stream-ticket for a new one")
        current_seat.set(seat)
        return seat

    async def issue_ticket(self, match_id: str, token: str | None) -> tuple[int, str, int]:
        """A stream ticket for the token's seat: the seat, the ticket and its expiry."""
        seat = await self.seat(match_id, token)
        key = await self.store.seat_token_hash(match_id, seat)
        if key is None:  # the seat was just found by this hash; only a vanished row gets here
            raise unauthorized("the token is not valid for this match")
        ticket, expires = tickets.issue(match_id, seat, key, self._now())
        return seat, ticket, expires

    def _now(self) -> float:
        """The clock's time in seconds since the epoch, as tickets count it."""
        return self.clock().timestamp()

    async def invited(self, match_id: str, invite: str | None) -> None:
        """A private table's seat needs its invite: 403 without it or with another one."""
        expected = await self.store.invite_hash(match_id)
        if expected is None:
            return
        if invite is None:
            raise forbidden("this table is private: taking a seat needs its invite (ask the "
                            "host), sent as \"invite\" with the name")
        if not auth.same_token(invite, expected):
            raise forbidden("the invite is not this table's")

    async def host(self, match_id: str, token: str | None) -> None:
        """Check the host token; 401 without a valid one, 403 for a seat's."""
        if token is None:
            raise unauthorized(f"this needs the host token: {NEEDS_TOKEN}")
        if not (await self.caller(match_id, token)).host:
            raise forbidden("only the host can start the match")

    async def own_seat(self, match_id: str, token: str | None, seat: int) -> None:
        """While a match runs, only seat N's own token may see seat N's past."""
        if token is None:
            raise unauthorized(
                f"seat {seat}'s view of a running match needs that seat's token: {NEEDS_TOKEN}, "
                "or ask without ?seat for the spectator's view"
            )
        caller = await self.caller(match_id, token)
        if caller.host:
            raise forbidden("the host token cannot see a seat's view while the match runs")
        if caller.seat != seat:
            raise forbidden(
                f"seat {caller.seat} may replay only its own view while the match runs, "
                f"not seat {seat}'s"
            )
