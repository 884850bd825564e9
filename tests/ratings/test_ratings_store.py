"""Ratings applied from the database (service/ratings.py, service/store/ratings.py): each rated
match once, even with two processes at once; caught up after a restart; read back as a
leaderboard, a history and an export that equal the pure fold."""

from __future__ import annotations

import asyncio

import asyncpg
import msgspec
import pytest

from projections.ratings import Header, RatingUpdate, fold, rated_match
from service.errors import ServiceError
from service.ratings import Rater, RatingService
from service.store.ratings import RatingStore
from tests.ratings.rated_matches import rated, written
from tests.replay.random_matches import Played

GAME = "wick-and-ember"


def expected(matches: list[Played]) -> list[RatingUpdate]:
    """The fold over the matches in finish order, from their events alone."""
    described = []
    for m in sorted(matches, key=lambda m: (m.finished_at, m.match_id)):
        events = [msgspec.json.decode(e.data) for e in m.events
                  if e.version == 1 or e.type == "seat_joined"]
        assert m.summary.result is not None
        found = rated_match(m.match_id, events, m.summary.result.placements)
        if found is not None:
            described.append(found)
    return list(fold(described))


async def stored_updates(ratings: RatingService) -> list[RatingUpdate]:
    """Every update the store holds for the game, in order."""
    return [u async for batch in ratings.store.updates(GAME) for u in batch]


async def test_a_catch_up_rates_every_finished_rated_match_once(pool: asyncpg.Pool) -> None:
    """Given 30 rated and 5 unrated finished matches, when two catch-ups run, then the updates
    are the fold's, in finish order, and nothing is applied twice."""
    matches = [rated(n) for n in range(30)] + [rated(100 + n, rated=False) for n in range(5)]
    await written(pool, matches)
    ratings = RatingService(RatingStore(pool))
    await ratings.catch_up(await ratings.start_from())
    await ratings.catch_up(await ratings.start_from())
    assert await stored_updates(ratings) == expected(matches[:30])


async def test_two_processes_rating_at_once_rate_each_match_once(pool: asyncpg.Pool) -> None:
    """Given 40 rated matches, when two raters (two server processes) pass over them at the
    same time, then each match is applied once and the sequence has no gap."""
    matches = [rated(n) for n in range(40)]
    await written(pool, matches)
    one, two = RatingService(RatingStore(pool)), RatingService(RatingStore(pool))
    counts = await asyncio.gather(one.apply(await one.store.finished_among(
        [m.match_id for m in matches])), two.catch_up(await two.start_from()))
    applied = await pool.fetch("SELECT sequence FROM rated_matches WHERE sequence IS NOT NULL "
                               "ORDER BY sequence")
    assert [row["sequence"] for row in applied] == list(range(1, len(applied) + 1))
    assert await pool.fetchval("SELECT count(*) FROM rated_matches") == 40
    assert counts[0] <= 40
    updates = await stored_updates(one)
    assert len({(u.match_id, u.subject) for u in updates}) == len(updates)


async def test_a_match_finished_while_no_server_ran_is_rated_on_start(
        pool: asyncpg.Pool) -> None:
    """Given 10 matches rated, when 10 more finish while no rater runs, then a new rater's
    first pass (from the latest applied finish, less the slack) rates them."""
    first, later = [rated(n) for n in range(10)], [rated(n) for n in range(10, 20)]
    await written(pool, first)
    await Rater(RatingService(RatingStore(pool)), 60).sweep()
    await written(pool, later)
    rater = Rater(RatingService(RatingStore(pool)), 60)
    await rater.sweep()
    assert await stored_updates(rater.ratings) == expected(first + later)


async def test_a_heard_match_is_rated_without_a_catch_up(pool: asyncpg.Pool) -> None:
    """The hub's news of a finishing append is enough: the heard match is rated."""
    rater = Rater(RatingService(RatingStore(pool)), 60)
    await rater.sweep()
    m = rated(7)
    await written(pool, [m])
    rater.heard(m.match_id, len(m.events))
    await rater.sweep(catch_up=False)
    assert await stored_updates(rater.ratings) == expected([m])


async def test_the_leaderboard_history_and_current(pool: asyncpg.Pool) -> None:
    """The leaderboard lists each subject's latest rating, best ordinal first, paged; a
    subject's history is its updates in order; ``current`` defaults the unrated."""
    matches = [rated(n) for n in range(20)]
    await written(pool, matches)
    ratings = RatingService(RatingStore(pool))
    await ratings.catch_up(await ratings.start_from())
    board = await ratings.leaderboard(GAME, 1, 0)
    assert board.subjects == 2 and board.next_offset == 1
    rest = await ratings.leaderboard(GAME, 1, 1)
    (top,), (second,) = board.ratings, rest.ratings
    assert top.ordinal >= second.ordinal and (top.rank, second.rank) == (1, 2)
    updates = expected(matches)
    mine = [u for u in updates if u.subject == top.subject]
    history = await ratings.history(GAME, top.subject, 100, 0)
    assert history.updates == mine and history.current == mine[-1].after
    now = await ratings.current(GAME, [top.subject, "nobody"])
    assert now[top.subject] == mine[-1].after and now["nobody"].games == 0


async def test_the_export_is_a_header_then_every_update(pool: asyncpg.Pool) -> None:
    """The export's first line names the model and its parameters; then the updates in order."""
    matches = [rated(n) for n in range(12)]
    await written(pool, matches)
    ratings = RatingService(RatingStore(pool))
    await ratings.catch_up(await ratings.start_from())
    lines = b"".join([part async for part in ratings.export(GAME)]).splitlines()
    head = msgspec.json.decode(lines[0], type=Header)
    assert (head.model, head.parameters["beta"]) == ("PlackettLuce", 25 / 6)
    assert [msgspec.json.decode(line, type=RatingUpdate) for line in lines[1:]] == expected(matches)


@pytest.mark.parametrize("call", ["leaderboard", "history"])
async def test_an_unknown_game_or_subject_is_a_404_naming_it(pool: asyncpg.Pool,
                                                            call: str) -> None:
    """No game 'chess'; no rating of 'bot:nobody'."""
    ratings = RatingService(RatingStore(pool))
    with pytest.raises(ServiceError) as refused:
        if call == "leaderboard":
            await ratings.leaderboard("chess", 10, 0)
        else:
            await ratings.history(GAME, "bot:nobody", 10, 0)
    assert refused.value.status == 404
    assert ("chess" if call == "leaderboard" else "bot:nobody") in refused.value.message


async def test_a_restart_catches_up_from_before_what_it_hears_first(pool: asyncpg.Pool) -> None:
    """Given 5 matches rated, then 5 finished unrated while no rater ran, and a match an hour
    later heard of at once: a new rater's first pass starts from the latest finish applied
    before it rated the heard match, so none of the five is skipped."""
    before, missed = [rated(n) for n in range(5)], [rated(n) for n in range(5, 10)]
    await written(pool, before)
    await Rater(RatingService(RatingStore(pool)), 60).sweep()
    await written(pool, missed)
    late = rated(70)  # finished 60 minutes after the others (EPOCH + index minutes)
    await written(pool, [late])
    rater = Rater(RatingService(RatingStore(pool)), 60)
    rater.heard(late.match_id, len(late.events))
    await rater.sweep()
    rated_ids = {row["match_id"] for row in await pool.fetch(
        "SELECT match_id::text AS match_id FROM rated_matches")}
    assert rated_ids == {m.match_id for m in before + missed + [late]}
