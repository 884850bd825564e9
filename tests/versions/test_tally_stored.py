"""Rules versions through the store: a Tally match created while version 1 was the latest and
one created after version 2 came are stored, loaded, played on, replayed and verified, each
under its own rules; a stored match whose version is no longer carried is refused with a 409.

Run against every store backend (MemoryStore and PostgresStore), as the store contract is.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest

from domain.core.decider import Rulebook
from domain.registry import RULEBOOKS, register, unregister
from projections.export import decode_export
from projections.verify import verify
from service.errors import ServiceError
from service.exports import ExportService
from service.loading import game_of, rules_of
from service.matches import MatchService
from service.store import EventStore, PostgresStore
from service.store.memory import MemoryStore
from tests.tally import GAME_V1, GAME_V2
from tests.versions.tally_service import started


@pytest.fixture(params=["memory", "postgres"])
def store(request: pytest.FixtureRequest) -> EventStore:
    """Each backend in turn; the Postgres one gets a fresh migrated database."""
    if request.param == "memory":
        return MemoryStore()
    return PostgresStore(request.getfixturevalue("pool"))


@contextlib.contextmanager
def not_carried(rulebook: Rulebook) -> Iterator[None]:
    """A release without this rules version, for the length of a with-block."""
    unregister(rulebook)
    try:
        yield
    finally:
        register(rulebook)


async def test_matches_of_both_versions_load_play_on_replay_and_verify_under_their_own_rules(
    store: EventStore,
) -> None:
    """Given a match created while version 1 was the latest and one created with version 2,
    when a fresh service (a restarted release carrying both) plays them to the end, then each
    keeps its own rules, replays under them, and its export verifies under them."""
    with not_carried(GAME_V2):
        assert game_of("tally") is GAME_V1
        old = await started(MatchService(store))
    new = await started(MatchService(store))
    assert await old.play(MatchService(store), random.Random(1), 4) == 4

    restarted = MatchService(store)
    assert rules_of(await store.get_match(old.match_id)) is GAME_V1
    assert rules_of(await store.get_match(new.match_id)) is GAME_V2
    for match, seed in ((old, 2), (new, 3)):
        assert await match.play(restarted, random.Random(seed), 100) < 100

    exports = ExportService(store)
    for match, version in ((old, "1"), (new, "2")):
        replay = await exports.replay(match.match_id)
        assert replay.rules_version == version
        assert len(replay.steps) == len(await store.load(match.match_id))
        document = decode_export(await exports.export(match.match_id))
        assert document.header.rules_version == version
        report = verify(document)
        assert report.ok, report.problem
        assert (await exports.verification(match.match_id)).ok
    v1_points = sum((await exports.replay(old.match_id)).steps[-1].state["game"]["scores"])
    assert v1_points == 3  # three rounds of 1 point: version 1's scoring, not the latest's


async def test_a_version_1_export_verifies_under_version_1_and_diverges_under_version_2(
    store: EventStore,
) -> None:
    """Given a finished version 1 match, then its export verifies while version 2 is the latest,
    and re-run as if it were version 2 the verifier finds the first round's score differs."""
    with not_carried(GAME_V2):
        old = await started(MatchService(store), seats=2)
    await old.play(MatchService(store), random.Random(4), 100)
    document = decode_export(await ExportService(store).export(old.match_id))

    assert verify(document).ok
    wrong = verify(document, {**RULEBOOKS, ("tally", "1"): GAME_V2})
    assert not wrong.ok and wrong.problem.check == "replay"
    assert "tally_round_won" in (wrong.problem.expected or "") + (wrong.problem.found or "")


async def test_a_stored_match_whose_rules_version_is_not_carried_is_refused_with_a_409(
    store: EventStore,
) -> None:
    """Given a version 1 match, when a release that no longer carries version 1 loads it, then
    viewing, playing and replaying it are refused with 409 naming the version, and the
    verifier refuses to re-rule its export; nothing is appended."""
    with not_carried(GAME_V2):
        old = await started(MatchService(store), seats=2)
    await old.play(MatchService(store), random.Random(5), 100)
    exported = await ExportService(store).export(old.match_id)
    before = len(await store.load(old.match_id))

    with not_carried(GAME_V1):
        service, exports = MatchService(store), ExportService(store)
        for attempt in (
            service.view(old.match_id, old.tokens[0]),
            service.concede(old.match_id, old.tokens[0]),
            exports.replay(old.match_id),
        ):
            with pytest.raises(ServiceError) as refused:
                await attempt
            assert refused.value.status == 409
            assert "tally rules version 1" in refused.value.message
            assert "carries version 2" in refused.value.message
        report = verify(decode_export(exported))
        assert not report.ok and report.problem.check == "rules"
    assert len(await store.load(old.match_id)) == before


async def test_new_matches_get_the_latest_version() -> None:
    """Given both versions carried, when a match is created, then it is played under version 2."""
    store = MemoryStore()
    match = await started(MatchService(store))
    assert game_of("tally") is GAME_V2
    assert (await store.get_match(match.match_id)).rules_version == "2"
