"""Rounds made in-process over a real Postgres: a round left half made by a crash, repeated
set-ups racing, and the revision guard."""

from __future__ import annotations

import asyncio

import pytest

from domain.core import match
from domain.games import lookup
from service import schemas
from service.errors import ServiceError
from service.matches import MatchService
from service.store import PostgresStore
from service.store.tournaments import RevisionConflict, TournamentStore
from service.tournament.rounds import Rounds
from service.tournament.schemas import CreateTournament, Register
from service.tournament.tournaments import TournamentService


async def closed_tournament(pool, entrants: int, persons: int = 0) -> tuple[Rounds, str, str]:
    """A closed Swiss of Wick & Ember with ``entrants`` bot entrants: (rounds, id, token)."""
    rounds, tid, token, _ = await with_persons(pool, entrants, persons)
    return rounds, tid, token


async def with_persons(pool, bots: int, persons: int) -> tuple[Rounds, str, str, list[str]]:
    """A closed Swiss of Wick & Ember, persons registered first, then bots: (rounds, id,
    organizer token, the persons' player tokens)."""
    service = TournamentService(TournamentStore(pool), MatchService(PostgresStore(pool)))
    made = await service.create(CreateTournament(name="Crash Cup", game="wick-and-ember",
                                                 table_size=2, format="swiss"))
    tid = made.tournament_id
    tokens = [(await service.register(tid, Register(name=f"Person {n}"))).player_token
              for n in range(persons)]
    for number in range(bots):
        await service.register(tid, Register(name=f"Bot {number}", bot="random"))
    await service.close(tid, made.organizer_token)
    return Rounds(service), tid, made.organizer_token, tokens


async def test_a_round_stored_but_not_made_is_made_once_by_racing_settles(pool):
    """Given a round whose pairing was stored when the server died (no match made yet), when
    three settles race to finish it, then each table has exactly one match, seated in the
    pairing's order and started."""
    rounds, tid, _ = await closed_tournament(pool, 6)
    held = await rounds.pair_and_store(await rounds.service.held(tid))
    assert all(held.status_of(mid) == "missing" for mid in held.rounds[0].matches.values())
    await asyncio.gather(*(rounds.settle(held) for _ in range(3)))
    held = await rounds.service.held(tid)
    matches = await rounds.matches.store.list_matches(tournament=tid, limit=100)
    assert len(matches) == 3 == len(held.rounds[0].matches)
    names = {e.number: e.name for e in held.entrants}
    for table in held.pairing(1).tables:
        row = held.matches[held.rounds[0].matches[table.number]]
        assert row.status == "playing"
        assert row.summary.names == tuple(names[n] for n in table.seats)
        assert row.label == f"round 1 table {table.number}"


async def test_a_table_half_seated_is_finished_without_a_second_seat(pool):
    """Given a table whose match was opened and seated only in part before a crash, when the
    round is set up again, then the missing seat is taken once and the match starts."""
    rounds, tid, _ = await closed_tournament(pool, 2)
    held = await rounds.pair_and_store(await rounds.service.held(tid))
    table = held.pairing(1).tables[0]
    mid = held.rounds[0].matches[table.number]
    game = lookup("wick-and-ember", held.settings.rules_version)
    await rounds.matches.open_table(game, schemas.CreateMatch(
        game=game.id, seats=2, tournament=tid, label="round 1 table 1"), mid, b"x" * 32)
    first = held.entrants[table.seats[0]]
    await rounds.matches.take_seat(mid, match.JoinSeat(name=first.name, bot=first.bot), None, 1)
    await rounds.settle(await rounds.service.held(tid))
    events = await rounds.matches.store.load(mid)
    joined = [e for e in events if e.type == "seat_joined"]
    assert len(joined) == 2
    assert (await rounds.matches.store.get_match(mid)).status in ("playing", "finished")


async def test_a_second_start_of_the_same_round_is_refused_and_makes_nothing(pool):
    """Given round 1 started and in play, when the organizer asks to start a round again, then
    409 names the unfinished tables and no match is added."""
    rounds, tid, token = await closed_tournament(pool, 4)
    await rounds.start_next(tid, token)
    with pytest.raises(ServiceError) as refused:
        await rounds.start_next(tid, token)
    assert refused.value.status == 409 and "round 1 is still being played" in refused.value.message
    assert len(await rounds.matches.store.list_matches(tournament=tid, limit=100)) == 2


async def test_a_change_at_an_old_revision_is_refused_and_writes_nothing(pool):
    """Given a tournament read at one revision and changed since, when a change is written at
    the old revision, then RevisionConflict and the entrant is not withdrawn."""
    rounds, tid, _ = await closed_tournament(pool, 2)
    stale = (await rounds.service.held(tid)).row
    await rounds.store.set_status(stale, "closed")
    with pytest.raises(RevisionConflict):
        await rounds.store.withdraw(stale, 0, 0)
    assert [e.withdrew_after for e in await rounds.store.entrants(tid)] == [None, None]


async def test_an_entrant_withdrawing_while_its_table_is_being_made_is_conceded_once_it_starts(
    pool,
):
    """Given a round paired and stored but its tables not yet made, when a person withdraws
    (its table is not in play, so there is nothing to concede yet) and the round is then set
    up, then the person's match starts and is finished by its concession, the person last."""
    rounds, tid, _, (token,) = await with_persons(pool, 1, 1)
    held = await rounds.pair_and_store(await rounds.service.held(tid))
    mid = held.rounds[0].matches[1]
    assert held.status_of(mid) == "missing"
    await rounds.service.withdraw(tid, token)
    assert (await rounds.service.held(tid)).status_of(mid) == "missing"
    held = await rounds.settle(await rounds.service.held(tid))
    row = held.matches[mid]
    seat = held.pairing(1).tables[0].seats.index(0)
    assert row.status == "finished" and row.summary.result is not None
    assert row.summary.result.placements[seat] == 2
    events = await rounds.matches.store.load(mid)
    assert sum(e.type == "seat_conceded" for e in events) == 1


async def test_a_match_stored_with_the_tournaments_tag_is_not_taken_for_a_table(pool):
    """Given three matches carrying the tournament's tag made past the route's refusal (as a
    match stored before it), when the tournament is read, then each table is its own match
    (read by its id, not found among the tag's matches) and the strangers are not held."""
    rounds, tid, token = await closed_tournament(pool, 2)
    started = await rounds.start_next(tid, token)
    for _ in range(3):
        await rounds.matches.create(schemas.CreateMatch(
            game="wick-and-ember", seats=2, tournament=tid, label="round 1 table 1"))
    assert len(await rounds.matches.store.list_matches(tournament=tid, limit=100)) == 4
    held = await rounds.service.held(tid)
    assert set(held.matches) == {t.match_id for t in started.tables}
