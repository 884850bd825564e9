"""Ratings: each rated match applied once when it finishes, and read back per game
(docs/ratings.md).

``Rater`` runs beside the requests in every server process. The hub tells it of every append
(``heard``), so a match is rated moments after its finishing append, whichever process wrote it;
and every ``interval`` it also pages through the matches finished since the last it saw (from
a little before the latest applied, at start-up), so a match that finished while no server ran,
or whose announcement was lost, is rated all the same. Either way ``RatingStore.apply`` rates a
match exactly once, under its game's lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable
from datetime import UTC, datetime, timedelta

import msgspec

from domain.games import GAMES
from projections.ratings import Rating, RatingUpdate, default_rating, header, rate, rated_match
from service.background import Background, Retry
from service.errors import ServiceError
from service.store.ratings import Pending, RatingStore

log = logging.getLogger("hearthlog.ratings")
SLACK = timedelta(minutes=5)  # how far back each pass looks before the last finish it saw
PAGE = 500
CATCH_UP_SECONDS = 30.0  # between catch-ups; a finishing append heard is rated at once
HEARD_GAP = 1.0  # at least this long between two passes over the appends heard of
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
NIL = "00000000-0000-0000-0000-000000000000"


class RatingStanding(msgspec.Struct, kw_only=True):
    """One line of a leaderboard."""

    rank: int
    subject: str
    name: str | None  # the player's name; None for a bot
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool


class Leaderboard(msgspec.Struct, kw_only=True):
    """One page of a game's leaderboard, best ordinal first."""

    game: str
    subjects: int
    ratings: list[RatingStanding]
    next_offset: int | None


class RatingHistory(msgspec.Struct, kw_only=True):
    """One page of a subject's updates in a game, oldest first."""

    game: str
    subject: str
    current: Rating
    updates: list[RatingUpdate]
    next_offset: int | None


class RatingService:
    """The ratings' use cases over the rating store."""

    def __init__(self, store: RatingStore) -> None:
        self.store = store

    async def current(self, game: str, subjects: list[str]) -> dict[str, Rating]:
        """Each subject's rating in a game (the default for one never rated)."""
        found = await self.store.current(known(game), subjects)
        return {subject: found.get(subject) or default_rating() for subject in subjects}

    async def leaderboard(self, game: str, limit: int, offset: int) -> Leaderboard:
        """A page of a game's subjects, best ordinal first."""
        rows, total = await self.store.board(known(game), limit, offset)
        standings = [RatingStanding(rank=offset + n, subject=row.subject, name=row.name,
                              mu=row.rating.mu, sigma=row.rating.sigma, ordinal=row.ordinal,
                              games=row.rating.games, provisional=row.rating.provisional)
                     for n, row in enumerate(rows, start=1)]
        return Leaderboard(game=game, subjects=total, ratings=standings,
                           next_offset=offset + limit if offset + limit < total else None)

    async def history(self, game: str, subject: str, limit: int, offset: int) -> RatingHistory:
        """A page of a subject's updates (404 when it was never rated in the game)."""
        latest = await self.store.current(known(game), [subject])
        if subject not in latest:
            raise ServiceError(404, f"{subject!r} has no rating in {game}")
        updates = await self.store.history(game, subject, limit + 1, offset)
        return RatingHistory(game=game, subject=subject, current=latest[subject],
                             updates=updates[:limit],
                             next_offset=offset + limit if len(updates) > limit else None)

    def export(self, game: str) -> AsyncIterator[bytes]:
        """The NDJSON export: the header line (model and parameters), then every update in
        sequence order (an unknown game is refused before the first line)."""
        return self._lines(known(game))

    async def _lines(self, game: str) -> AsyncIterator[bytes]:
        """The export's lines of a known game."""
        encoder = msgspec.json.Encoder()
        yield encoder.encode(header(game)) + b"\n"
        async for batch in self.store.updates(game):
            yield b"".join(encoder.encode(update) + b"\n" for update in batch)

    async def apply(self, pending: Iterable[Pending]) -> int:
        """Rate each match not rated yet, in the order given; how many this call rated."""
        rated = 0
        for match in pending:
            if match.game not in GAMES:
                continue  # a game this server does not carry (HEARTHLOG_EXTRA_GAMES elsewhere)
            described = rated_match(match.match_id, await self.store.seats(match.match_id),
                                    match.placements)
            if await self.store.apply(match, described, rate) is not None:
                rated += 1
        return rated

    async def rate_among(self, match_ids: list[str]) -> int:
        """Rate those of these matches that are finished, rated and not applied yet."""
        rated = 0
        for start in range(0, len(match_ids), PAGE):
            found = await self.store.finished_among(match_ids[start:start + PAGE])
            rated += await self.apply(await self.unapplied(found))
        return rated

    async def catch_up(self, since: datetime) -> datetime:
        """Rate every rated match finished since a time, page by page; the last finish seen."""
        after, last = (since, NIL), since
        while page := await self.store.finished_rated(after, PAGE):
            await self.apply(await self.unapplied(page))
            after = (page[-1].finished_at, page[-1].match_id)
            last = page[-1].finished_at
        return last

    async def start_from(self) -> datetime:
        """Where a process's first catch-up begins: a little before the latest finish applied."""
        latest = await self.store.watermark()
        return latest - SLACK if latest else EARLIEST

    async def unapplied(self, page: list[Pending]) -> list[Pending]:
        """The matches of a page not applied yet, in its order."""
        done: set[str] = set()
        for game in {p.game for p in page}:
            done |= await self.store.applied(game, [p.match_id for p in page if p.game == game])
        return [p for p in page if p.match_id not in done]


def known(game: str) -> str:
    """The game id, or a 404 naming it."""
    if game not in GAMES:
        raise ServiceError(404, f"no game {game!r}; the games: {', '.join(sorted(GAMES))}")
    return game


class Rater(Background):
    """Rates finished matches as they finish (poked by the hub) and catches up every
    ``interval`` seconds, backed off while the database is away."""

    name = "hearthlog-rater"

    def __init__(self, ratings: RatingService, interval: float = CATCH_UP_SECONDS) -> None:
        self.ratings, self.interval = ratings, interval
        self.retry = Retry(log, first=interval, cap=max(interval, 30.0))
        self._heard: set[str] = set()
        self._woken = asyncio.Event()
        self._since: datetime | None = None

    def heard(self, match_id: str, version: int | None) -> None:
        """An append somewhere (service.live.hub): look at that match on the next pass."""
        self._heard.add(match_id)
        self._woken.set()

    async def _run(self) -> None:
        """Rate what was heard of (one pass a HEARD_GAP at most), catch up every interval;
        after a failure, wait as ``retry`` says, whatever is heard meanwhile."""
        loop = asyncio.get_running_loop()
        due = loop.time()  # the next catch-up
        while True:
            try:
                await asyncio.wait_for(self._woken.wait(), timeout=max(0.0, due - loop.time()))
            except TimeoutError:
                pass
            catch_up = loop.time() >= due
            try:
                await self.sweep(catch_up=catch_up)
                self.retry.succeeded(self.name)
            except Exception:  # the database may be away: try again, backed off
                await asyncio.sleep(self.retry.failed(self.name, "rating matches failed"))
                continue
            if catch_up:
                due = loop.time() + self.interval
            await asyncio.sleep(HEARD_GAP)

    async def sweep(self, catch_up: bool = True) -> None:
        """Rate the matches heard of (kept for the next pass if this one fails); then, if
        ``catch_up``, every rated match finished since the last finish seen (less SLACK; at
        start-up, less SLACK than the latest applied)."""
        self._woken.clear()
        if catch_up and self._since is None:  # before rating anything heard, which moves it
            self._since = await self.ratings.start_from()
        heard = sorted(self._heard)
        await self.ratings.rate_among(heard)
        self._heard.difference_update(heard)
        if catch_up and self._since is not None:
            self._since = await self.ratings.catch_up(self._since) - SLACK
