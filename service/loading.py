"""Loading a match: its cached state if current, else the fold of its stored events."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import msgspec

from domain.core import match
from domain.core.codec import event_decoder
from domain.core.decider import Game
from domain.games import GAMES
from service.errors import ServiceError, not_found
from service.store import MatchRow


class Loaded(msgspec.Struct, frozen=True, kw_only=True):
    """A match as of one version: its game, its row and its folded state."""

    row: MatchRow
    game: Game
    state: match.MatchState
    version: int


def game_of(game_id: str) -> Game:
    """The game a stored match is played with; refuses a rules version we cannot serve."""
    game = GAMES.get(game_id)
    if game is None:
        raise ServiceError(422, f"unknown game {game_id!r}; the catalogue is at GET /games")
    return game


class StateCache:
    """Folded states by match id, least recently used first out; only ever a cache."""

    def __init__(self, store: Any, capacity: int = 2048) -> None:
        self._store = store
        self._capacity = capacity
        self._states: OrderedDict[str, tuple[int, match.MatchState]] = OrderedDict()

    async def load(self, match_id: str) -> Loaded:
        """The match at its latest stored version."""
        row = await self._store.get_match(match_id)
        if row is None:
            raise not_found(match_id)
        game = game_of(row.game)
        if row.rules_version != game.rules_version:
            raise ServiceError(
                409,
                f"this match was played under {row.game} rules version {row.rules_version}; "
                f"this server plays version {game.rules_version} and will not re-rule it",
            )
        version, state = self._states.get(match_id, (0, None))
        if version > row.version:
            version, state = 0, None
        if version < row.version:
            events = await self._store.load(match_id, after=version)
            state = match.fold(game, decode_events(game, events), state)
            version = events[-1].version if events else version
        self.remember(match_id, version, state)
        return Loaded(row=row, game=game, state=state, version=version)

    def remember(self, match_id: str, version: int, state: match.MatchState) -> None:
        """Keep a state known to be the fold of the first ``version`` events."""
        self._states[match_id] = (version, state)
        self._states.move_to_end(match_id)
        while len(self._states) > self._capacity:
            self._states.popitem(last=False)


def decode_events(game: Game, stored: list[Any]) -> list[Any]:
    """Typed events from stored rows."""
    decoder = event_decoder(game)
    return [decoder.decode(event.data) for event in stored]
