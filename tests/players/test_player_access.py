"""A player's token acting for its seat (service.access): asked of the player store only when the
token is neither a seat's nor the host's, and then remembered, as a seat token is, so a player's
next request in that match costs no look-up."""

from __future__ import annotations

from service import auth, schemas
from service.access import Access
from service.matches import MatchService
from service.store.memory import MemoryStore
from tests.core.sources import counted_seeds


class CountedPlayers:
    """A player store holding one player's seat (seat 1 of one match), counting its look-ups."""

    def __init__(self, match_id: str, token: str) -> None:
        self.match_id, self.hashed, self.asked = match_id, auth.token_hash(token), 0

    async def seat_for_token(self, match_id: str, token_hash: bytes) -> int | None:
        """Seat 1 for the player's token in its match, else None."""
        self.asked += 1
        return 1 if (match_id, token_hash) == (self.match_id, self.hashed) else None


async def opened() -> tuple[MemoryStore, str, str, str]:
    """Given a match with one anonymous seat: the store, the match, the host's and the seat's
    tokens."""
    store = MemoryStore()
    service = MatchService(store, seeds=counted_seeds("player access"))
    made = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
    seat = await service.join(made.match_id, schemas.JoinSeat(name="Bryn"))
    assert seat.token is not None
    return store, made.match_id, made.host_token, seat.token


async def test_a_players_seat_is_looked_up_once_and_then_remembered():
    store, match_id, _, _ = await opened()
    players = CountedPlayers(match_id, "ash's token")
    access = Access(store, players=players)  # type: ignore[arg-type]  (a fake store)

    first = await access.caller(match_id, "ash's token")
    again = await access.caller(match_id, "ash's token")

    assert first.seat == again.seat == 1 and players.asked == 1


async def test_a_seat_token_and_the_host_token_never_ask_the_player_store():
    store, match_id, host, seat = await opened()
    players = CountedPlayers(match_id, "ash's token")
    access = Access(store, players=players)  # type: ignore[arg-type]  (a fake store)

    assert (await access.caller(match_id, seat)).seat == 0
    assert (await access.caller(match_id, host)).host
    assert players.asked == 0
