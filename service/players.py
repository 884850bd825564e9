"""Players: an identity across matches and tournaments, made by a person or by a client app for
its users, holding a bearer token (shown once, stored as a hash).

A player's name passes the one name rule as the body is decoded (service.names), and no two
players have names alike (``likeness``: case folded, confusables joined): the second is a 409
naming the first. ``authenticate`` is how every other part learns who a player's token is.
"""

from __future__ import annotations

import uuid

from service import auth, schemas
from service.errors import ServiceError, unauthorized
from service.names import likeness
from service.store.players import (
    NameClash,
    NewPlayer,
    Player,
    PlayerRow,
    PlayerStore,
    SeatRow,
)

__all__ = ["NEEDS_PLAYER", "Player", "PlayerService"]

NEEDS_PLAYER = "send 'Authorization: Bearer <player token>' (POST /players makes a player)"


class PlayerService:
    """Players over their store."""

    def __init__(self, store: PlayerStore) -> None:
        self.store = store

    async def create(self, name: str, app_id: str | None = None) -> schemas.PlayerCreated:
        """Make a player (for the app ``app_id`` when one asks); 409 for a name like another's."""
        token = auth.new_token()
        new = NewPlayer(player_id=str(uuid.uuid4()), name=name, name_key=likeness(name),
                        token_hash=auth.token_hash(token), app_id=app_id)
        try:
            row = await self.store.create(new)
        except NameClash as clash:
            raise ServiceError(409, f"the name {name!r} is taken: it looks like the player "
                               f"{str(clash)!r}; choose a name others can tell apart") from None
        return schemas.PlayerCreated(player_id=row.player_id, name=row.name, token=token)

    async def authenticate(self, token: str | None) -> Player:
        """The player a token is; 401 naming the problem when it is missing or nobody's."""
        if token is None:
            raise unauthorized(f"this needs a player token: {NEEDS_PLAYER}")
        row = await self.store.by_token(auth.token_hash(token))
        if row is None:
            raise unauthorized("the token is no player's: a player token comes from POST /players")
        return _player(row)

    async def get(self, player_id: str) -> Player:
        """A player by id; 404 when there is none."""
        return _player(await self._row(player_id))

    async def profile(self, player_id: str) -> schemas.PlayerProfile:
        """A player as anyone may see it; 404 when there is none."""
        row = await self._row(player_id)
        return schemas.PlayerProfile(player_id=row.player_id, name=row.name,
                                     created_at=row.created_at)

    async def matches(self, player_id: str, limit: int, offset: int) -> schemas.PlayerMatchPage:
        """A page of the player's matches, newest first, with its seat and place in each."""
        row = await self._row(player_id)
        seats = await self.store.seats(row.player_id, limit + 1, offset)
        return schemas.PlayerMatchPage(
            matches=[_played(seat) for seat in seats[:limit]],
            next_offset=offset + limit if len(seats) > limit else None)

    async def tournaments(
        self, player_id: str, limit: int, offset: int
    ) -> schemas.PlayerTournamentPage:
        """A page of the tournaments the player registered in, newest first."""
        row = await self._row(player_id)
        entries = await self.store.entries(row.player_id, limit + 1, offset)
        return schemas.PlayerTournamentPage(
            tournaments=[schemas.PlayerTournament(
                tournament_id=e.tournament_id, name=e.tournament_name, status=e.status,
                entrant=e.entrant, entrant_name=e.name, created_at=e.created_at,
                finished_at=e.finished_at) for e in entries[:limit]],
            next_offset=offset + limit if len(entries) > limit else None)

    async def finished(self, player_id: str) -> list[str]:
        """The ids of the player's finished matches, oldest first; 404 for no such player."""
        return await self.store.finished((await self._row(player_id)).player_id)

    async def _row(self, player_id: str) -> PlayerRow:
        """The stored player; 404 naming the id when there is none."""
        row = await self.store.get(player_id)
        if row is None:
            raise ServiceError(404, f"no player {player_id}")
        return row


def _player(row: PlayerRow) -> Player:
    """The identity of a stored player."""
    return Player(row.player_id, row.name, row.app_id)


def _played(seat: SeatRow) -> schemas.PlayerMatch:
    """A seat a player took, with its place once the match is over."""
    result = seat.summary.get("result")
    place = won = None
    if isinstance(result, dict):
        place = result["placements"][seat.seat]
        won = seat.seat in result["winners"]
    return schemas.PlayerMatch(
        match_id=seat.match_id, game=seat.game, status=seat.status,
        practice=seat.practice, seat=seat.seat, place=place, won=won,
        created_at=seat.created_at, finished_at=seat.finished_at)
