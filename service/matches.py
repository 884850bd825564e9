"""The application service: each use case loads a match, asks the rules, appends, answers."""

from __future__ import annotations

import contextlib
import hashlib
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import msgspec

from domain.core import match
from domain.core.codec import as_typed, command_decoder, encode, tag_of
from domain.core.decider import Concede, Game
from domain.core.errors import RuleViolation
from projections.summary import summary as summarise
from service import auth, schemas, views
from service.access import Access
from service.clock import owed_since
from service.errors import ServiceError, not_found, version_clash
from service.loading import Loaded, StateCache, game_of, kept_times
from service.names import look_alike
from service.reads import Reads
from service.sources import Clock, SeedSource, secret_seed, wall_clock
from service.store import (
    Change,
    CommandRecord,
    DuplicateCommand,
    EventStore,
    MatchRow,
    NewEvent,
    NewMatch,
    StoredEvent,
    StoreError,
    UnknownMatch,
    VersionConflict,
    match_uuid,
)
from service.store.players import Player, PlayerStore

RETRIES = 20


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """What a use case appended, and the state it led to."""

    loaded: Loaded
    version: int
    shaped: views.Shaped  # the views of ``loaded``, shared with this process's feed of the match
    answer: bytes | None = None  # the caller's encoded answer, when it cannot differ from later


class Sent(msgspec.Struct, frozen=True):
    """A command on its way to the rules: the seat it is for (None: the match's own, such as a
    join or the start), and what the request said with it: its id (a retry's answer is the
    first's), the version it was decided on, a token for the seat it takes."""

    seat: int | None
    command: Any
    command_id: str | None = None
    expected: int | None = None
    token_hash: bytes | None = None


class Committed(msgspec.Struct, frozen=True, kw_only=True):
    """What this process knows of a command it just committed beside its stored events: the
    events as decided, with the match before each and after the last (match.Decided), and the
    views after them (views.Shaped)."""

    decided: match.Decided[Any]
    shaped: views.Shaped


class Appends(Protocol):
    """Who takes this process's own appends as they commit (the live hub: its feeds need neither
    read back nor fold again what this process has just written, nor shape again what its answer
    shaped)."""

    def appended(self, match_id: str, stored: list[StoredEvent], committed: Committed) -> None:
        """The match's events ``stored``, just committed by this process, and what it knows of
        them."""


class MatchService:
    """Every use case of the REST API, over one event store; ``seeds`` draws each new match's
    server seed and ``clock`` tells the time (service.sources: secret and wall-clock unless a
    test hands in its own)."""

    def __init__(self, store: EventStore, lobby_hours: float = 24.0,
                 reads: Reads | None = None, *, seeds: SeedSource = secret_seed,
                 clock: Clock = wall_clock, players: PlayerStore | None = None) -> None:
        self.store, self.seeds, self.clock = store, seeds, clock
        self.reads = reads or Reads(store)  # where stale-safe reads go (service.reads)
        self.lobby_for = timedelta(hours=lobby_hours)
        self.cache = StateCache(store)
        self.access = Access(store, clock, players)
        self._takers: list[Appends] = []

    def hand_on(self, taker: Appends) -> None:
        """Hand ``taker`` every append this service commits from now on (once however often
        asked)."""
        if taker not in self._takers:
            self._takers.append(taker)

    async def create(self, body: schemas.CreateMatch) -> schemas.MatchCreatedAnswer:
        """Open a match: draw and commit to its server seed, hand out the host token."""
        host_token, match_id = auth.new_token(), str(uuid.uuid4())
        invite = auth.new_token() if body.private else None
        await self._open(game_of(body.game), body, match_id, auth.token_hash(host_token),
                         auth.token_hash(invite) if invite else None)
        return schemas.MatchCreatedAnswer(
            match_id=match_id, host_token=host_token, match=await self.summary(match_id),
            invite=invite,
        )

    async def open_table(
        self, game: Game, body: schemas.CreateMatch, match_id: str, host_token_hash: bytes
    ) -> None:
        """Open a match under a chosen id (a tournament's table, a matchmaking table); done
        already if it exists. A private one's invite is nobody's: only the server seats it."""
        invite = auth.token_hash(auth.new_token()) if body.private else None
        with contextlib.suppress(StoreError):
            await self._open(game, body, match_id, host_token_hash, invite)
        if await self.store.get_match(match_id) is None:  # refused for another reason
            raise ServiceError(503, f"match {match_id} could not be created; try again")

    async def take_seat(
        self, match_id: str, command: match.JoinSeat, token_hash: bytes | None, expected: int
    ) -> None:
        """Seat a named player at the expected version (409 if it moved): a retry never takes
        a second seat. ``token_hash`` is the seat token's (a tournament's player token); a
        player's seat without one gets a token nobody is given (its stream tickets' key)."""
        if token_hash is None and command.player is not None:
            token_hash = auth.token_hash(auth.new_token())
        await self._apply(match_id, Sent(None, command, expected=expected, token_hash=token_hash))

    async def begin(self, match_id: str, expected: int) -> None:
        """Start a full match for its host (a tournament), at the expected version."""
        await self._apply(match_id, Sent(None, match.StartMatch(), expected=expected))

    async def _open(self, game: Game, body: schemas.CreateMatch, match_id: str,
                    host_token_hash: bytes, invite_hash: bytes | None) -> None:
        """Draw the server seed, commit to it, store the match and its first event."""
        seed = self.seeds()
        with rule_errors():
            created = match.open_match(
                game,
                seats=body.seats,
                options=body.options,
                practice=body.practice,
                tournament=body.tournament,
                label=body.label,
                seed_commitment=hashlib.sha256(seed).hexdigest(),
                turn_seconds=body.turn_seconds,
                rated=body.rated,
            )
        state = match.evolve(game, None, created)
        await self.store.create_match(NewMatch(
            match_id=match_id,
            game=game.id,
            rules_version=game.rules_version,
            seats=body.seats,
            practice=body.practice,
            tournament=body.tournament,
            label=body.label,
            seed_commitment=created.seed_commitment,
            server_seed=seed,
            host_token_hash=host_token_hash,
            first=new_events([created], seat=None, command=None, command_id=None)[0],
            summary=summarise(game, state, seed),
            invite_hash=invite_hash,
        ))

    async def summary(self, match_id: str) -> schemas.MatchSummary:
        """The match as listed."""
        row = await self.store.get_match(parse_id(match_id))
        if row is None:
            raise not_found(match_id)
        return views.summary(row, self.lobby_for)

    async def list(self, **filters: Any) -> schemas.MatchPage:
        """A page of matches, newest first."""
        limit, offset = filters.pop("limit"), filters.pop("offset")
        rows = await self.reads.recent(
            lambda store: store.list_matches(limit=limit + 1, offset=offset, **filters))
        more = len(rows) > limit
        return schemas.MatchPage(
            matches=[views.summary(row, self.lobby_for) for row in rows[:limit]],
            next_offset=offset + limit if more else None,
        )

    async def join(
        self, match_id: str, body: schemas.JoinSeat, player: Player | None = None
    ) -> schemas.SeatAnswer:
        """Take the next free seat and get its token; a bot's seat gets none. With a player
        (its token sent), the seat is the player's, named as the player unless named."""
        await self._open_lobby(parse_id(match_id))
        await self.access.invited(parse_id(match_id), body.invite)
        player = None if body.bot else player  # a server bot's seat is nobody's
        if body.name is None and body.bot is None and player is None:
            raise ServiceError(400, "the body needs at least one of name, bot (or send a "
                               "player's token: 'Authorization: Bearer <player token>')")
        token = None if body.bot else auth.new_token()
        # prepared by the one name rule as the body was decoded
        name = body.name or (player.name if player else "")
        command = match.JoinSeat(name=name, client_seed=body.client_seed, bot=body.bot,
                                 player=player.player_id if player else None)
        table = (await self.cache.load(parse_id(match_id))).state  # one read for both checks
        _seatable(table, command)
        _distinct(table, name)
        hashed = auth.token_hash(token) if token else None
        done = await self._apply(match_id, Sent(None, command, token_hash=hashed))
        return schemas.SeatAnswer(seat=len(done.loaded.state.names) - 1, token=token, bot=body.bot)

    async def start(self, match_id: str, token: str | None) -> schemas.MatchSummary:
        """The host starts play once every seat is taken."""
        await self.access.host(parse_id(match_id), token)
        await self._open_lobby(parse_id(match_id))
        await self._apply(match_id, Sent(None, match.StartMatch()))
        return await self.summary(match_id)

    async def view(self, match_id: str, token: str | None) -> schemas.MatchView:
        """A seat's view with its token; the spectator's without one."""
        seat = await self.access.viewer(parse_id(match_id), token)
        return views.match_view(await self._current(parse_id(match_id)), seat)

    async def legal_actions(self, match_id: str, token: str | None) -> schemas.LegalActions:
        """Every complete command the caller's seat may send now."""
        seat = await self.access.seat(parse_id(match_id), token)
        loaded = await self._current(parse_id(match_id))
        return schemas.LegalActions(game=loaded.row.game, version=loaded.version,
                                    actions=views.actions(loaded, seat))

    async def log(self, match_id: str, token: str | None, after: int) -> schemas.LogPage:
        """Log lines after a version: public ones, plus the caller's private ones."""
        seat = await self.access.viewer(parse_id(match_id), token)
        loaded = await self.cache.load(parse_id(match_id))
        events = await self.store.load(loaded.row.match_id)
        return views.log_page(loaded, events, seat, after)

    async def command(
        self, match_id: str, token: str | None, body: schemas.SendCommand
    ) -> tuple[int, bytes]:
        """Play a command for the caller's seat; a repeated command_id gets the first answer."""
        mid = parse_id(match_id)
        seat = await self.access.seat(mid, token)
        loaded = self.cache.known(mid) or await self.cache.load(mid)
        command = None
        try:
            command = decode_command(loaded.game, body.command)
            done = await self._apply(mid, Sent(seat, command, command_id=body.command_id,
                                               expected=body.expected_version))
        except (DuplicateCommand, ServiceError):
            # A copy of this command (same id) may have been played before, or won the race,
            # here or on another server: then this copy is refused (a clash, not your turn, a
            # duplicate id) but the first answer stands, and it is what a retry must get. The
            # id sent with another command is refused (422), as the IETF Idempotency-Key draft
            # says: else the new command would silently never happen.
            earlier = None
            if body.command_id:
                earlier = await self._earlier(mid, body.command_id, seat, command)
            if earlier is None:
                raise
            return earlier
        return 200, done.answer or encode(self._answer(done, seat))

    async def concede(self, match_id: str, token: str | None) -> schemas.CommandAnswer:
        """The caller's seat gives up the match."""
        seat = await self.access.seat(parse_id(match_id), token)
        done = await self._apply(match_id, Sent(seat, Concede()))
        return self._answer(done, seat)

    async def concede_for(self, match_id: str, seat: int) -> None:
        """Concede for a seat (a tournament's organizer forfeits a no-show): the match's own
        Concede command, so the result stays a verifiable match result."""
        await self._apply(match_id, Sent(seat, Concede()))

    async def act_for(self, match_id: str, seat: int | None, command: Any, expected: int) -> int:
        """The server acts (for a bot, or for a seat out of time) through the one command path."""
        return (await self._apply(match_id, Sent(seat, command, expected=expected))).version

    async def server_seed(self, match_id: str) -> bytes:
        """The match's secret server seed, for the server's own bots (never shown while in play)."""
        return await self._server_seed(parse_id(match_id))

    async def viewer(self, match_id: str, token: str | None) -> int | None:
        """The seat a token views as (None: a spectator); 401 for a token not of this match."""
        return await self.access.viewer(parse_id(match_id), token)

    async def stream_viewer(
        self, match_id: str, token: str | None, ticket: str | None
    ) -> int | None:
        """Who follows a stream: by a token, by a stream ticket (never both), or a spectator."""
        if ticket is None:
            return await self.viewer(match_id, token)
        if token is not None:
            raise ServiceError(400, "send a token or a stream ticket, not both")
        return await self.access.ticket_seat(parse_id(match_id), ticket)

    async def stream_ticket(self, match_id: str, token: str | None) -> schemas.StreamTicket:
        """A short-lived ticket that opens the caller's seat's stream without a header."""
        seat, ticket, expires = await self.access.issue_ticket(parse_id(match_id), token)
        return schemas.StreamTicket(seat=seat, ticket=ticket,
                                    expires_at=datetime.fromtimestamp(expires, UTC))

    async def _open_lobby(self, match_id: str) -> None:
        """410 for a lobby not started within its time (HEARTHLOG_LOBBY_HOURS): it is over."""
        row = (self.cache.known(match_id) or await self.cache.load(match_id)).row
        ends = row.created_at + self.lobby_for
        if row.status == "lobby" and self.clock() >= ends:
            hours = self.lobby_for.total_seconds() / 3600
            raise ServiceError(410, f"this lobby expired at {ends.isoformat()}: it was not "
                               f"started within {hours:g} hours of its creation "
                               "(HEARTHLOG_LOBBY_HOURS); open a new match")

    async def _current(self, match_id: str) -> Loaded:
        """The match at its latest version: as held here when one probe proves it (no row read:
        StateCache.current), else loaded."""
        return await self.cache.current(match_id) or await self.cache.load(match_id)

    def _answer(self, done: Outcome, seat: int) -> schemas.CommandAnswer:
        """The version, the caller's new view and its legal actions now: one request a move."""
        return schemas.CommandAnswer(game=done.loaded.row.game, version=done.version,
                                     view=done.shaped.view(seat),
                                     actions=done.shaped.actions(seat))

    async def _earlier(
        self, match_id: str, command_id: str, seat: int, command: Any
    ) -> tuple[int, bytes] | None:
        """The stored first answer to a command id, if it was seen before with this command
        (``command``: the one sent now, None if it did not decode)."""
        record = await self.store.find_command(match_id, command_id)
        if record is None:
            return None
        if record.seat != seat:
            raise ServiceError(409, f"command_id {command_id!r} was already used by another seat")
        sent = None if command is None else msgspec.to_builtins(command)
        if record.command is not None and record.command != sent:
            raise ServiceError(
                422, f"command_id {command_id!r} was already used for another command, which "
                "was applied; this one was not: send a new command with a new command_id",
                first_command=record.command, first_version=record.version,
            )
        return record.status_code, record.response

    async def _apply(self, match_id: str, sent: Sent) -> Outcome:
        """Decide and append; on a version clash, decide again on the new state (bounded).

        The first try decides on the state this process last knew, without asking the database:
        the append's version check proves it current, and a refusal (a clash, a rule) is only
        ever given after deciding again on a freshly loaded state.
        """
        mid = parse_id(match_id)
        try:
            known = self.cache.known(mid)
            if known is not None:
                with contextlib.suppress(ServiceError, VersionConflict):
                    return await self._attempt(known, sent)
            for _ in range(RETRIES):
                try:
                    return await self._attempt(await self.cache.load(mid), sent)
                except VersionConflict as clash:
                    if sent.expected is not None:
                        raise version_clash(sent.expected, clash.current) from None
        except UnknownMatch:
            # Held here, yet the database has no such match: it was lost (an asynchronous
            # standby promoted before it had it, docs/reliability.md). It is not there: 404.
            self.forget(mid)
            raise not_found(mid) from None
        raise ServiceError(503, "the match is too busy right now; try again", retry_after=1)

    def forget(self, match_id: str) -> None:
        """Drop everything held of a match the database does not have."""
        self.cache.forget(match_id)

    async def _attempt(self, loaded: Loaded, sent: Sent) -> Outcome:
        """Decide on ``loaded`` and append at its version; VersionConflict if it was not current."""
        mid = loaded.row.match_id
        if sent.expected is not None and sent.expected != loaded.version:
            raise version_clash(sent.expected, loaded.version)
        seed = await self._server_seed(mid)
        with rule_errors():
            decided = match.decide_each(loaded.game, loaded.state, sent.seat, sent.command, seed)
        events, state = decided.events, decided.after
        written = range(loaded.version + 1, loaded.version + len(events) + 1)
        stamp = self.clock()
        after = Loaded(row=_stamped(loaded.row, stamp), game=loaded.game, state=state,
                       version=loaded.version + len(events),
                       times=kept_times(state, loaded.times, ((v, stamp) for v in written)))
        shaped = views.Shaped(after)
        record = self._record(shaped, sent)
        stored = await self.store.append(
            mid, loaded.version,
            new_events(events, seat=sent.seat, command=sent.command, command_id=sent.command_id),
            change_of(after, seed, sent, record))
        if stored:
            at = stored[-1].recorded_at
            times = kept_times(state, loaded.times, ((v, at) for v in written))
            after = msgspec.structs.replace(after, row=_stamped(after.row, at), times=times)
            shaped = shaped.restamped(after, at)
        head = stored[-1].hash if stored else None
        self.cache.remember(mid, after.version, state, after.times, head=head, row=after.row)
        if stored and self._takers:  # committed: this process's feeds take them as decided
            committed = Committed(decided=decided, shaped=shaped)
            for taker in self._takers:
                taker.appended(mid, stored, committed)
        # Without a turn clock the answer does not depend on the append's time: reuse it.
        unclocked = record is not None and match.turn_seconds(state) is None
        reused = record.response if record is not None and unclocked else None
        return Outcome(loaded=after, version=after.version, shaped=shaped, answer=reused)

    def _record(self, shaped: views.Shaped, sent: Sent) -> CommandRecord | None:
        """The first answer to a seat's command sent with an id, kept for its retries."""
        if sent.command_id is None or sent.seat is None:
            return None
        after = shaped.loaded
        answer = self._answer(Outcome(loaded=after, version=after.version, shaped=shaped),
                              sent.seat)
        return CommandRecord(command_id=sent.command_id, seat=sent.seat, response=encode(answer),
                             status_code=200, version=after.version)

    async def _server_seed(self, match_id: str) -> bytes:
        """The match's secret server seed (kept in memory once read; never shown while in play)."""
        seed = self.cache.seed(match_id)
        if seed is None:
            seed = await self.store.server_seed(match_id)
            if seed is None:
                raise not_found(match_id)
            self.cache.keep_seed(match_id, seed)
        return seed


@contextmanager
def rule_errors() -> Iterator[None]:
    """Turn a rule violation raised by the domain into the service's error."""
    try:
        yield
    except RuleViolation as violation:
        raise ServiceError(violation.status, violation.message) from None


def decode_command(game: Game, command: dict[str, Any]) -> Any:
    """The sent command as one of the match's game's commands (the one place a command is
    decoded); 422 naming what is wrong otherwise."""
    try:
        typed = as_typed(command_decoder(game), command)
    except msgspec.ValidationError as error:
        raise ServiceError(422, f"invalid command: {error}") from None
    unknown = schemas.unknown_fields(command, typed)
    if unknown:
        raise ServiceError(400, f"the command has a field {unknown[0]!r} a {tag_of(typed)!r} "
                           "command does not take (is it spelt as documented?)", fields=unknown)
    return typed


def change_of(after: Loaded, seed: bytes, sent: Sent, record: CommandRecord | None) -> Change:
    """What the append changes beside the events: the row's read model as of ``after``, the
    seat token of a seat just taken, the command's first answer, who owes a move since when."""
    state, token_hash = after.state, sent.token_hash
    return Change(
        status=match.status(after.game, state),
        summary=summarise(after.game, state, seed),
        seats_taken=len(state.names),
        seat_token=(len(state.names) - 1, token_hash) if token_hash else None,
        command=record,
        owed=owed_since(state),
    )


def _stamped(row: MatchRow, at: datetime) -> MatchRow:
    """The row as of a new append at ``at`` (a turn clock's deadline runs from it)."""
    return msgspec.structs.replace(row, updated_at=at)


def parse_id(match_id: str) -> str:
    """A canonical match id; 404 for anything that is not one (parsed by the store's cached
    ``match_uuid``)."""
    key = match_uuid(match_id)
    if key is None:
        raise not_found(match_id)
    return str(key)


def new_events(
    events: list[Any], *, seat: int | None, command: Any, command_id: str | None
) -> list[NewEvent]:
    """Events ready to append, each with its metadata; the first carries the command itself."""
    out = []
    for index, event in enumerate(events):
        metadata: dict[str, Any] = {"seat": seat, "command_id": command_id}
        if index == 0 and command is not None:
            metadata["command"] = msgspec.to_builtins(command)
        out.append(NewEvent(type=tag_of(event), data=encode(event), metadata=metadata))
    return out


def _seatable(state: match.MatchState, command: match.JoinSeat) -> None:
    """The seat's player checked first (a player already seated, an anonymous seat of a rated
    match), so a second seat of one player is refused as that, not as its name."""
    if isinstance(state, match.Lobby):
        with rule_errors():
            match.check_player(state, command)


def _distinct(state: match.MatchState, name: str) -> None:
    """422 for a name that looks like one already at the table (service.names.likeness)."""
    alike = look_alike(name, list(state.names))
    if name and alike is not None:
        raise ServiceError(422, f"the name {name!r} looks like {alike!r}, already taken at "
                           "this table; choose a name the others can tell apart")
