"""The seams where seeds and time come in (service.sources): a counted seed source deals the same
matches every run, a stopped clock decides a lobby's expiry without sleeping, and production
draws a fresh secret seed for every match and tournament, and reads the wall clock."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from litestar.testing import AsyncTestClient

from service import schemas, tickets
from service.errors import ServiceError
from service.http.app import create_app
from service.matches import MatchService
from service.sources import SEED_BYTES, secret_seed, wall_clock
from service.store import PostgresStore
from service.store.memory import MemoryStore
from service.store.tournaments import TournamentStore
from service.tournament import schemas as ts
from service.tournament.tournaments import TournamentService
from tests.core.sources import StoppedClock, counted_seed, counted_seeds

HOUR = 3600.0


async def dealt(service: MatchService, seats: int = 3) -> list[tuple[str, bytes]]:
    """Open, seat and start a Wick & Ember match: its stored events as (type, data)."""
    created = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=seats))
    for n in range(seats):
        await service.join(created.match_id, schemas.JoinSeat(name=f"P{n}"))
    await service.start(created.match_id, created.host_token)
    return [(row.type, row.data) for row in await service.store.load(created.match_id)]


def test_a_counted_seed_source_gives_the_same_seeds_in_the_same_order():
    """Given two counted sources of one label, then they give the same 32-byte seeds in the
    same order, SHA-256(label:n); each draw differs from the last, and another label differs."""
    first, again, other = counted_seeds("table"), counted_seeds("table"), counted_seeds("tables")
    drawn = [first() for _ in range(3)]
    assert drawn == [again() for _ in range(3)]
    assert drawn[0] == hashlib.sha256(b"table:0").digest() == counted_seed("table", 0)
    assert len(set(drawn)) == 3 and all(len(seed) == SEED_BYTES for seed in drawn)
    assert other() != drawn[0]


async def test_the_same_seed_source_deals_the_same_match_twice():
    """Given two match services, each with its own counted source of one label, when each deals
    a match, then the two are the same, event for event and byte for byte; a service's next
    match gets the next seed, so it is dealt differently."""
    one = MatchService(MemoryStore(), seeds=counted_seeds("same deal"))
    two = MatchService(MemoryStore(), seeds=counted_seeds("same deal"))
    first = await dealt(one)
    assert await dealt(two) == first
    assert any(kind == "round_dealt" for kind, _ in first)
    assert await dealt(one) != first


async def test_a_lobby_past_its_hours_is_refused_410_by_a_stepped_clock():
    """Given a one-hour lobby on a stopped clock, when the clock stands a microsecond short of
    the hour a seat is taken; once it reaches the hour, then joining is refused with 410 and
    the lobby is as it was: no test sleeps an hour."""
    clock = StoppedClock()
    store = MemoryStore(clock=clock)
    service = MatchService(store, lobby_hours=1, seeds=counted_seeds("lobby"), clock=clock)
    created = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=3))
    assert created.match.created_at == clock()
    clock.advance(HOUR - 1e-6)
    await service.join(created.match_id, schemas.JoinSeat(name="Ash"))
    clock.advance(1e-6)
    with pytest.raises(ServiceError) as refused:
        await service.join(created.match_id, schemas.JoinSeat(name="Bryn"))
    assert refused.value.status == 410 and "HEARTHLOG_LOBBY_HOURS" in refused.value.message
    assert len(await store.load(created.match_id)) == 2


async def test_a_stream_ticket_expires_at_its_lifetime_by_the_services_clock():
    """Given a seat's stream ticket issued on a stopped clock, then it opens the seat's stream
    a second before its lifetime ends and is refused 401 once the clock reaches it: the ticket's
    time is the service's clock, not the wall clock."""
    clock = StoppedClock(datetime(2025, 3, 1, tzinfo=UTC))
    service = MatchService(MemoryStore(clock=clock), seeds=counted_seeds("ticket"), clock=clock)
    created = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
    ash = await service.join(created.match_id, schemas.JoinSeat(name="Ash"))
    issued = await service.stream_ticket(created.match_id, ash.token)
    assert issued.expires_at == clock() + timedelta(seconds=tickets.LIFETIME)
    clock.advance(tickets.LIFETIME - 1)
    assert await service.stream_viewer(created.match_id, None, issued.ticket) == 0
    clock.advance(1)
    with pytest.raises(ServiceError) as refused:
        await service.stream_viewer(created.match_id, None, issued.ticket)
    assert refused.value.status == 401 and "expired" in refused.value.message


def test_a_stopped_clock_moves_only_forwards_and_only_when_told():
    """Given a stopped clock, then it tells one aware time until advanced, and refuses to run
    backwards or to start without a time zone."""
    clock = StoppedClock(datetime(2025, 3, 1, tzinfo=UTC))
    assert clock() == clock() == datetime(2025, 3, 1, tzinfo=UTC)
    assert clock.advance(1.5) == datetime(2025, 3, 1, 0, 0, 1, 500_000, tzinfo=UTC)
    with pytest.raises(ValueError):
        clock.advance(-1)
    with pytest.raises(ValueError):
        StoppedClock(datetime(2025, 3, 1))


async def test_production_draws_a_fresh_secret_seed_for_every_match_and_reads_the_wall_clock():
    """Given a match service with its defaults, then each match's server seed is 32 fresh bytes
    (distinct, committed to by its summary) and its clock is the wall clock's UTC time."""
    store = MemoryStore()
    service = MatchService(store)
    assert (service.seeds, service.clock) == (secret_seed, wall_clock)
    created = [await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
               for _ in range(3)]
    seeds = [await store.server_seed(c.match_id) for c in created]
    assert len(set(seeds)) == 3 and all(seed and len(seed) == SEED_BYTES for seed in seeds)
    assert [c.match.seed_commitment for c in created] == [
        hashlib.sha256(seed or b"").hexdigest() for seed in seeds]
    for clock in (wall_clock, store.clock):  # the store keeps its own (it imports no service)
        before = datetime.now(UTC)
        assert before <= clock() <= datetime.now(UTC) and clock().tzinfo == UTC
    assert secret_seed() != secret_seed()


async def test_a_tournament_draws_its_seed_from_the_source_and_its_token_from_secrets(pool):
    """Given a tournament service with a counted source, then the tournament commits to that
    source's first seed, while its organizer token is a fresh secret; production's default
    source draws a distinct seed for each tournament."""
    body = ts.CreateTournament(name="Seam Cup", game="wick-and-ember", table_size=2,
                               format="swiss")
    matches = MatchService(PostgresStore(pool))
    counted = TournamentService(TournamentStore(pool), matches, seeds=counted_seeds("cup"))
    one, two = await counted.create(body), await counted.create(body)
    assert one.seed_commitment == hashlib.sha256(counted_seed("cup", 0)).hexdigest()
    assert two.seed_commitment == hashlib.sha256(counted_seed("cup", 1)).hexdigest()
    assert one.organizer_token != two.organizer_token
    secret = TournamentService(TournamentStore(pool), matches)
    assert (await secret.create(body)).seed_commitment != (await secret.create(body)
                                                            ).seed_commitment


async def test_the_app_passes_its_seed_source_and_clock_to_its_services(database_url):
    """Given the app made with a counted source and a stopped clock (at the wall clock's time:
    Postgres records its own), when a match is opened over HTTP, then it commits to the
    source's first seed; when the clock is stepped past the lobby's 24 hours, a join is 410."""
    clock = StoppedClock(datetime.now(UTC))
    app = create_app(database_url, seeds=counted_seeds("app"), clock=clock)
    async with AsyncTestClient(app) as client:
        opened = await client.post("/matches", json={"game": "wick-and-ember", "seats": 2})
        assert opened.status_code == 201, opened.text
        match = opened.json()
        assert match["match"]["seed_commitment"] == hashlib.sha256(
            counted_seed("app", 0)).hexdigest()
        clock.advance(timedelta(hours=24, minutes=1).total_seconds())
        joined = await client.post(f"/matches/{match['match_id']}/seats", json={"name": "Ash"})
        assert joined.status_code == 410, joined.text
