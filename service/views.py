"""Shaping answers: summaries, views, legal actions and log pages, all through the observers."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import msgspec

from domain.core import match
from domain.core.decider import Game
from domain.core.templates import Template
from projections.log import seat_log
from service import schemas
from service.clock import deadlines
from service.loading import Loaded, decode_events
from service.store import MatchRow


def summary(row: MatchRow, lobby_for: timedelta | None = None) -> schemas.MatchSummary:
    """The public summary of a stored match row (a lobby's with when it expires)."""
    stored = row.summary
    in_lobby = lobby_for is not None and row.status == "lobby"
    expires = row.created_at + lobby_for if lobby_for is not None and in_lobby else None
    result = stored.result
    return schemas.MatchSummary(
        match_id=str(row.match_id),
        game=row.game,
        rules_version=row.rules_version,
        status=row.status,
        seats=row.seats,
        players=players(stored.names, stored.bots, stored.players),
        rated=stored.rated,
        practice=row.practice,
        private=row.private,
        tournament=row.tournament,
        label=row.label,
        version=row.version,
        seed_commitment=row.seed_commitment,
        server_seed=stored.server_seed,
        client_seeds=None if stored.client_seeds is None else list(stored.client_seeds),
        result=None if result is None else msgspec.convert(result, schemas.ResultInfo,
                                                           from_attributes=True),
        created_at=row.created_at,
        finished_at=row.finished_at,
        expires_at=expires,
    )


def players(
    names: list[str] | tuple[str, ...], bots: Any, ids: tuple[str | None, ...] = ()
) -> list[schemas.PlayerInfo]:
    """The taken seats, each bot marked with its name and each player's with its id."""
    return [
        schemas.PlayerInfo(seat=i, name=name, bot=bots[i] if i < len(bots) else None,
                           player=ids[i] if i < len(ids) else None)
        for i, name in enumerate(names)
    ]


def match_view(
    loaded: Loaded, seat: int | None, last_event_at: datetime | None = None
) -> schemas.MatchView:
    """The caller's view: the game's observer for the board, nothing else from the state.

    With a turn clock each owing seat has its own deadline, from the recorded time of the version
    it began to owe at (``loaded.times``; ``last_event_at``, else the row's last update, for one
    not known). ``deadline`` is the caller's own when it owes, else the soonest of them.
    """
    return Shaped(loaded, last_event_at).view(seat)


def public_view(
    loaded: Loaded, last_event_at: datetime | None = None, board: bool = True
) -> schemas.MatchView:
    """The spectator's view (its board only if ``board``), whose every part but the board and the
    deadline is every seat's too: shaped once for all the viewers of one state (a feed's
    change), each seat's view cut from it by ``seat_view``."""
    state, game = loaded.state, loaded.game
    shown = None
    waiting: tuple[int, ...] = ()
    if isinstance(state, match.Table):
        shown = game.observe(state.game, None) if board else None
        waiting = () if match.outcome(game, state) is not None else game.to_act(state.game)
    ends = deadlines(state, loaded.times, last_event_at or loaded.row.updated_at)
    return schemas.MatchView(
        match_id=str(loaded.row.match_id),
        game=loaded.game.id,
        status=match.status(loaded.game, state),
        version=loaded.version,
        practice=state.created.practice,
        seat=None,
        players=players(state.names, state.bots, state.players),
        board=shown,
        to_act=list(waiting),
        deadline=min(ends.values(), default=None),
        deadlines=[schemas.SeatDeadline(seat=s, deadline=at) for s, at in sorted(ends.items())],
    )


def seat_view(public: schemas.MatchView, loaded: Loaded, seat: int | None) -> schemas.MatchView:
    """A seat's view of the state ``public`` was shaped from: its own board and deadline."""
    if seat is None:
        return public
    state = loaded.state
    board = (loaded.game.observed(state.game, seat, public.board)
             if isinstance(state, match.Table) else None)
    own = next((d.deadline for d in public.deadlines if d.seat == seat), public.deadline)
    return msgspec.structs.replace(public, seat=seat, board=board, deadline=own)


class _Parts(msgspec.Struct):
    """What a ``Shaped`` has made so far."""

    public: schemas.MatchView | None = None
    board: bool = False  # whether ``public`` carries the spectator's board
    views: dict[int | None, schemas.MatchView] = {}
    actions: dict[int, list[schemas.LegalAction]] = {}


class Shaped:
    """One match at one version as its viewers see it, each part shaped once however often asked:
    the public part, each seat's view and legal actions, kept by seat so no seat is shown
    another's. The command's answer and the match's feed share one (docs/live.md)."""

    def __init__(self, loaded: Loaded, last_event_at: datetime | None = None,
                 parts: _Parts | None = None) -> None:
        self.loaded, self.last_event_at = loaded, last_event_at
        self._parts = parts or _Parts()

    def restamped(self, loaded: Loaded, last_event_at: datetime) -> Shaped:
        """The same version as recorded at ``last_event_at``: what was shaped is kept when no
        turn clock makes a view depend on the time, else shaped afresh."""
        unclocked = match.turn_seconds(loaded.state) is None
        return Shaped(loaded, last_event_at, self._parts if unclocked else None)

    def view(self, seat: int | None) -> schemas.MatchView:
        """The seat's view (None: the spectator's)."""
        views = self._parts.views
        view = views.get(seat)
        if view is None:
            view = views[seat] = seat_view(self._public(seat), self.loaded, seat)
        return view

    def _public(self, seat: int | None) -> schemas.MatchView:
        """The public part, with the spectator's board for the spectator or for a game that makes
        each seat's board over it (``observe_over``)."""
        parts = self._parts
        board = seat is None or self.loaded.game.observe_over is not None
        if parts.public is None or (board and not parts.board):
            parts.public = public_view(self.loaded, self.last_event_at, board=board)
            parts.board = board
        return parts.public

    def actions(self, seat: int) -> list[schemas.LegalAction]:
        """The seat's legal actions (``actions``)."""
        offered = self._parts.actions.get(seat)
        if offered is None:
            offered = self._parts.actions[seat] = actions(self.loaded, seat)
        return offered


def actions(loaded: Loaded, seat: int) -> list[schemas.LegalAction]:
    """The seat's legal actions as offered (Rulebook.offered): each command ready to send back,
    or a template with the set of cards left to choose, with its label for a person."""
    state, game = loaded.state, loaded.game
    if not isinstance(state, match.Table) or match.outcome(game, state) is not None:
        return []
    return [_offered(game, state.game, seat, action) for action in game.offered(state.game, seat)]


def _offered(game: Game, state: Any, seat: int, action: Any) -> schemas.LegalAction:
    """One offered action as the API writes it."""
    if isinstance(action, Template):
        return schemas.LegalAction(command=msgspec.to_builtins(action.command), label=action.label,
                                   choose=action.choose)
    return schemas.LegalAction(command=msgspec.to_builtins(action),
                               label=game.label(state, seat, action))


def log_page(loaded: Loaded, stored: list[Any], seat: int | None, after: int) -> schemas.LogPage:
    """Log lines after a version, for a seat (or the public)."""
    events = decode_events(loaded.game, stored)
    version = stored[-1].version if stored else 0
    return schemas.LogPage(entries=seat_log(loaded.game, events, seat, after), version=version)
