"""The read router's rules on the test's own Postgres, quickly: a read database that answers
and holds everything serves stale-safe reads; one that does not answer sends them to the
primary, and a many-match export is refused with 503 rather than put on the primary.
(tests/replica/test_read_replica.py runs the same rules against a real streaming standby.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import asyncpg
import pytest

from service.errors import ServiceError
from service.logs import current_read
from service.reads import Reads
from service.store import ExportFilter, PostgresStore
from service.store.replica import ReadSettings, Standby
from tests.servers import free_port

SETTINGS = ReadSettings(max_lag=5, probe_seconds=60)


@pytest.fixture
async def nowhere(pool: asyncpg.Pool) -> AsyncIterator[Standby]:
    """A standby configured on a loopback port nothing listens on."""
    standby = await Standby.open(f"postgresql://postgres@127.0.0.1:{free_port()}/none", pool,
                                 SETTINGS)
    yield standby
    await standby.close()


async def test_a_read_database_holding_everything_serves_listings_and_many_match_exports(
    pool: asyncpg.Pool, database_url: str
):
    """Given the primary itself as the read database (it holds everything it has written),
    when probed, then it is fresh, listings are read there and a bulk export is served by it."""
    standby = await Standby.open(database_url, pool, SETTINGS)
    try:
        assert standby.up and standby.fresh() and standby.lag() < 5
        reads = Reads(PostgresStore(pool), standby)
        assert await reads.recent(lambda store: store.list_matches()) == []
        assert current_read.get() == "standby"
        assert reads.bulk() is standby.store
    finally:
        await standby.close()


async def test_a_read_database_that_does_not_answer_sends_reads_to_the_primary(
    pool: asyncpg.Pool, nowhere: Standby
):
    """Given a read database nobody answers on, when reads are routed, then a finished match's
    read and a listing are the primary's, and a many-match export is a 503 with Retry-After."""
    assert not nowhere.up and not nowhere.fresh() and nowhere.lag() is None
    reads = Reads(PostgresStore(pool), nowhere)
    assert await reads.finished("0b8f7a36-3a89-4b69-9a39-6f4d2d7c1f00",
                                lambda store: store.get_match("0b8f7a36-3a89-4b69-9a39-"
                                                              "6f4d2d7c1f00")) is None
    assert current_read.get() == "primary"
    assert await reads.recent(lambda store: store.count_finished(ExportFilter())) == 0
    with pytest.raises(ServiceError) as refused:
        reads.bulk()
    assert refused.value.status == 503 and refused.value.extra["retry_after"] == 5
    assert "not answering" in refused.value.message


async def test_a_standby_that_fails_a_read_is_skipped_and_the_primary_answers(
    pool: asyncpg.Pool, nowhere: Standby
):
    """Given a standby last proven current that has since gone away, when a listing is read,
    then the standby's refusal is not the answer: the primary's is, and the standby is marked
    down (fresh again only once a probe is answered)."""
    nowhere.up, nowhere.caught_up_at = True, time.monotonic()
    reads = Reads(PostgresStore(pool), nowhere)
    assert await reads.recent(lambda store: store.list_matches()) == []
    assert current_read.get() == "primary" and not nowhere.up
    await nowhere.probe()
    assert not nowhere.fresh()


async def test_tournament_standings_are_a_stale_safe_read_served_by_a_fresh_standby(
    pool: asyncpg.Pool, database_url: str, nowhere: Standby
):
    """Given a tournament with three entrants, when its standings are read with a fresh read
    database, then the standby answers; with one that does not answer, the primary answers the
    same standings (JSON and CSV)."""
    from service.matches import MatchService
    from service.store.tournaments import TournamentStore
    from service.tournament.schemas import CreateTournament, Register
    from service.tournament.tournaments import TournamentService

    primary = PostgresStore(pool)
    standby = await Standby.open(database_url, pool, SETTINGS)
    try:
        fresh = TournamentService(TournamentStore(pool),
                                  MatchService(primary, reads=Reads(primary, standby)))
        down = TournamentService(TournamentStore(pool),
                                 MatchService(primary, reads=Reads(primary, nowhere)))
        made = await fresh.create(CreateTournament(name="Cup", game="wick-and-ember",
                                                   table_size=2, format="swiss"))
        for name in ("Ash", "Bryn", "Cole"):
            await fresh.register(made.tournament_id, Register(name=name))
        served = await fresh.standings(made.tournament_id)
        assert current_read.get() == "standby"
        assert sorted(row.name for row in served.standings) == ["Ash", "Bryn", "Cole"]
        assert await down.standings(made.tournament_id) == served
        assert current_read.get() == "primary"
        assert await down.standings_csv(made.tournament_id) == \
            await fresh.standings_csv(made.tournament_id)
    finally:
        await standby.close()


@pytest.mark.parametrize("environ", [
    {},
    {"HEARTHLOG_READ_MAX_LAG_SECONDS": "2"},
    {"HEARTHLOG_READ_PROBE_SECONDS": "0.5"},
    {"HEARTHLOG_READ_MAX_LAG_SECONDS": "2", "HEARTHLOG_READ_PROBE_SECONDS": "0.5"},
])
def test_read_settings_from_an_environment_that_sets_some_or_none_of_them(monkeypatch, environ):
    """Given the read settings' variables set or not (docs/scaling.md starts a standby with
    neither), then each unset one keeps its default and each set one is read: numbers, never
    the Struct's field descriptors, so the lag can be compared."""
    for name in ("HEARTHLOG_READ_MAX_LAG_SECONDS", "HEARTHLOG_READ_PROBE_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    settings = ReadSettings.from_env()
    assert settings.max_lag == float(environ.get("HEARTHLOG_READ_MAX_LAG_SECONDS", 5.0))
    assert settings.probe_seconds == float(environ.get("HEARTHLOG_READ_PROBE_SECONDS", 1.0))
    assert 0.0 <= settings.max_lag  # a number: the comparison the standby's fresh() makes


async def test_the_probe_goes_on_after_a_failure_nobody_foresaw(
    pool: asyncpg.Pool, database_url: str, monkeypatch
):
    """Given a standby probed every 50 ms, when one probe fails with an error that is not one
    of a standby's known failures, then the standby is marked down (reads go to the primary),
    and the next probe runs as usual and finds it current again."""
    from service.live.probing import Probing

    standby = await Standby.open(database_url, pool, ReadSettings(max_lag=5, probe_seconds=0.05))
    real, failures = standby.probe, []

    async def once_broken() -> None:
        if not failures:
            failures.append(1)
            raise RuntimeError("a probe broken in a way nobody foresaw")
        await real()

    monkeypatch.setattr(standby, "probe", once_broken)
    probing = Probing(standby)
    probing.start()
    try:
        deadline = time.monotonic() + 10
        while not failures or standby.up is False or not standby.fresh():
            assert time.monotonic() < deadline, "the probe did not run again after its failure"
            await asyncio.sleep(0.02)
        assert failures == [1] and probing._task is not None and not probing._task.done()
    finally:
        await probing.stop()
        await standby.close()


async def test_the_process_wide_exports_ask_where_to_read_at_every_many_match_export(
    pool: asyncpg.Pool, database_url: str
):
    """Given the one RoutedExports a server process keeps, when a many-match export was served
    by a fresh standby and the standby then fails, then the next export is refused with 503
    (and a later one names its database again), not read from the store the first one chose."""
    from service.reads import RoutedExports

    standby = await Standby.open(database_url, pool, SETTINGS)
    try:
        exports = RoutedExports(Reads(PostgresStore(pool), standby))
        assert await exports.count(ExportFilter()) == 0
        assert current_read.get() == "standby"
        standby.failed(ConnectionError("the standby went away"))
        with pytest.raises(ServiceError) as refused:
            await exports.count(ExportFilter())
        assert refused.value.status == 503
        await standby.probe()
        current_read.set(None)
        assert await exports.count(ExportFilter()) == 0
        assert current_read.get() == "standby"
    finally:
        await standby.close()
