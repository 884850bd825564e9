"""The event store contract, written once: every store runs it by subclassing ``StoreContract``
with a ``store`` fixture (tests/store/test_store_contract.py: the memory and Postgres stores).

A new store (Citus, say) passes when ``class TestCitusStore(StoreContract)`` with its fixture
passes; nothing here knows which store it is given."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import msgspec
import pytest

from domain.core.chain import chain
from domain.core.decider import Outcome
from projections.summary import Summary
from service.store import (
    Change,
    CommandRecord,
    DuplicateCommand,
    EventStore,
    ExportFilter,
    NewEvent,
    NewMatch,
    OwedSince,
    StoreError,
    UnknownMatch,
    VersionConflict,
    snapshots,
)


def event(type: str = "card_played", **data: Any) -> NewEvent:
    """A new event whose data is the canonical JSON of its tag and fields."""
    return NewEvent(type=type, data=msgspec.json.encode({"type": type, **data}), metadata={"n": 1})


async def new_match(store: EventStore, **options: Any) -> str:
    """Create a match with defaults overridden by ``options``; return its id."""
    match_id = str(uuid.uuid4())
    fields: dict[str, Any] = {
        "match_id": match_id,
        "game": "embers",
        "rules_version": "1",
        "seats": 2,
        "practice": False,
        "tournament": None,
        "label": None,
        "seed_commitment": "c0ffee",
        "server_seed": b"seed-" + match_id.encode(),
        "host_token_hash": b"host-" + match_id.encode(),
        "first": event("match_created", game="embers"),
        "summary": Summary(),
    }
    await store.create_match(NewMatch(**(fields | options)))
    return match_id


WON = Outcome(winners=(0,), scores=(3, 1), placements=(1, 2))  # a finished match's result
EXPORTED = 37  # finished matches in the export test: more than one page of a paged store


def decoded(data: bytes) -> Any:
    """The JSON value of event data."""
    return msgspec.json.decode(data)


class StoreContract:
    """What every event store keeps. A subclass gives the ``store`` fixture: a fresh, empty one."""

    @pytest.fixture
    def store(self) -> EventStore:
        """The store under test (each subclass makes its own)."""
        raise NotImplementedError("a StoreContract subclass gives the store fixture")

    async def test_a_created_match_loads_with_its_first_event(self, store: EventStore) -> None:
        match_id = await new_match(store)

        [first] = await store.load(match_id)

        assert (first.match_id, first.version, first.type) == (match_id, 1, "match_created")
        assert decoded(first.data) == {"type": "match_created", "game": "embers"}
        assert first.metadata == {"n": 1}

    async def test_a_created_match_has_a_lobby_row_without_secrets(self, store: EventStore) -> None:
        match_id = await new_match(store, tournament="spring", label="table 4", practice=True)

        row = await store.get_match(match_id)

        assert row is not None
        assert (row.game, row.rules_version, row.status, row.seats) == ("embers", "1", "lobby", 2)
        assert (row.seats_taken, row.practice, row.tournament, row.label) == (
            0,
            True,
            "spring",
            "table 4",
        )
        assert (row.version, row.seed_commitment, row.summary) == (1, "c0ffee", Summary())
        assert row.finished_at is None and row.created_at == row.updated_at
        assert not {"server_seed", "host_token_hash"} & set(msgspec.structs.asdict(row))
        assert await store.server_seed(match_id) == b"seed-" + match_id.encode()
        assert await store.host_token_hash(match_id) == b"host-" + match_id.encode()

    async def test_append_at_the_head_version_adds_the_next_versions(
        self, store: EventStore
    ) -> None:
        match_id = await new_match(store)

        stored = await store.append(
            match_id,
            1,
            [event(card=1), event(card=2)],
            Change(status="playing", summary=Summary(names=("turn 2",)), seats_taken=2),
        )

        assert [e.version for e in stored] == [2, 3]
        assert [e.version for e in await store.load(match_id)] == [1, 2, 3]
        row = await store.get_match(match_id)
        assert row is not None
        assert (row.version, row.status, row.summary, row.seats_taken) == (
            3,
            "playing",
            Summary(names=("turn 2",)),
            2,
        )
        assert row.head_hash == stored[-1].hash and row.updated_at >= row.created_at

    async def test_append_at_a_stale_version_raises_and_writes_nothing(
        self, store: EventStore
    ) -> None:
        match_id = await new_match(store)
        await store.append(
            match_id,
            1,
            [event(card=1)],
            Change(status="playing", summary=Summary(names=("turn 1",))),
        )

        with pytest.raises(VersionConflict) as raised:
            await store.append(
                match_id, 1, [event(card=9)], Change(status="finished", summary=Summary())
            )

        assert raised.value.current == 2
        assert [e.version for e in await store.load(match_id)] == [1, 2]
        row = await store.get_match(match_id)
        assert row is not None and (row.status, row.summary) == (
            "playing",
            Summary(names=("turn 1",)),
        )

    async def test_hashes_chain_from_genesis_over_the_appended_bytes(
        self, store: EventStore
    ) -> None:
        first = event("match_created", game="embers")
        more = [event(card=n, note="ü ✓") for n in range(5)]
        match_id = await new_match(store, first=first)
        await store.append(match_id, 1, more[:2], Change(status="playing", summary=Summary()))
        await store.append(match_id, 3, more[2:], Change(status="playing", summary=Summary()))

        stored = await store.load(match_id)

        expected = chain([e.data for e in [first, *more]])
        assert [e.hash for e in stored] == expected
        assert [decoded(e.data) for e in stored[1:]] == [decoded(e.data) for e in more]
        assert [e.data for e in stored[1:]] == [
            e.data for e in more
        ]  # byte for byte: they are hashed
        row = await store.get_match(match_id)
        assert row is not None and row.head_hash == expected[-1]

    async def test_concurrent_appends_at_one_version_let_exactly_one_win(
        self, store: EventStore
    ) -> None:
        match_id = await new_match(store)

        results = await asyncio.gather(
            *(
                store.append(
                    match_id,
                    1,
                    [event(writer=n), event(writer=n)],
                    Change(status="playing", summary=Summary(names=(f"writer {n}",))),
                )
                for n in range(10)
            ),
            return_exceptions=True,
        )

        winners = [r for r in results if isinstance(r, list)]
        assert len(winners) == 1
        assert all(
            isinstance(r, VersionConflict) and r.current == 3 for r in results if r not in winners
        )
        stored = await store.load(match_id)
        assert [e.version for e in stored] == [1, 2, 3]
        assert stored[1].hash == winners[0][0].hash

    async def test_a_duplicate_command_id_rolls_back_the_whole_append(
        self, store: EventStore
    ) -> None:
        match_id = await new_match(store)
        answer = CommandRecord(
            command_id="c-1", seat=0, response=b'{"ok":1}', status_code=200, version=2
        )
        await store.append(
            match_id,
            1,
            [event(card=1)],
            Change(status="playing", summary=Summary(names=("a 1",)), command=answer),
        )

        with pytest.raises(DuplicateCommand):
            await store.append(
                match_id,
                2,
                [event(card=2)],
                Change(
                    status="finished",
                    summary=Summary(names=("b 2",)),
                    seat_token=(1, b"token-1"),
                    command=CommandRecord(
                        command_id="c-1", seat=0, response=b"x", status_code=200, version=3
                    ),
                ),
            )

        assert [e.version for e in await store.load(match_id)] == [1, 2]
        row = await store.get_match(match_id)
        assert row is not None and (row.version, row.status, row.summary) == (
            2,
            "playing",
            Summary(names=("a 1",)),
        )
        assert row.finished_at is None
        assert await store.seat_for_token(match_id, b"token-1") is None

    async def test_a_recorded_command_gives_back_its_first_answer(self, store: EventStore) -> None:
        match_id = await new_match(store)
        answer = CommandRecord(
            command_id="c-7", seat=1, response=b'{"view": [1, 2]}', status_code=201, version=2
        )
        await store.append(
            match_id,
            1,
            [event(card=1)],
            Change(status="playing", summary=Summary(), command=answer),
        )

        found = await store.find_command(match_id, "c-7")

        assert found is not None and found.recorded_at is not None
        assert msgspec.structs.replace(found, recorded_at=None) == answer
        assert await store.find_command(match_id, "c-8") is None

    async def test_a_command_without_events_is_recorded_at_the_same_version(
        self, store: EventStore
    ) -> None:
        match_id = await new_match(store)
        refused = CommandRecord(
            command_id="bad", seat=0, response=b"{}", status_code=422, version=1
        )

        assert (
            await store.append(
                match_id, 1, [], Change(status="lobby", summary=Summary(), command=refused)
            )
            == []
        )

        row = await store.get_match(match_id)
        assert row is not None and row.version == 1
        assert await store.find_command(match_id, "bad") is not None

    async def test_load_after_and_upto_select_a_version_range(self, store: EventStore) -> None:
        match_id = await new_match(store)
        await store.append(
            match_id,
            1,
            [event(card=n) for n in range(5)],
            Change(status="playing", summary=Summary()),
        )

        assert [e.version for e in await store.load(match_id, after=3)] == [4, 5, 6]
        assert [e.version for e in await store.load(match_id, upto=2)] == [1, 2]
        assert [e.version for e in await store.load(match_id, after=2, upto=4)] == [3, 4]
        assert await store.load(match_id, after=6) == []

    async def test_finishing_sets_the_status_and_finished_at_once(self, store: EventStore) -> None:
        match_id = await new_match(store)
        await store.append(
            match_id,
            1,
            [event(card=1)],
            Change(status="finished", summary=Summary(names=("Ann",), result=WON)),
        )
        row = await store.get_match(match_id)
        assert row is not None and row.finished_at is not None

        await store.append(
            match_id, 2, [event("seed_revealed")], Change(status="finished", summary=Summary())
        )

        later = await store.get_match(match_id)
        assert later is not None and (later.status, later.finished_at) == (
            "finished",
            row.finished_at,
        )

    async def test_list_filters_by_game_status_tournament_and_practice(
        self, store: EventStore
    ) -> None:
        a = await new_match(store, game="embers", tournament="spring")
        b = await new_match(store, game="embers", practice=True)
        c = await new_match(store, game="lantern", tournament="spring")
        await store.append(c, 1, [event(card=1)], Change(status="playing", summary=Summary()))

        async def ids(**filters: Any) -> set[str]:
            return {row.match_id for row in await store.list_matches(**filters)}

        assert await ids() == {a, b, c}
        assert await ids(game="embers") == {a, b}
        assert await ids(status="playing") == {c}
        assert await ids(tournament="spring") == {a, c}
        assert await ids(practice=True) == {b}
        assert await ids(game="embers", status="lobby", tournament="spring") == {a}
        assert await ids(game="nope") == set()

    async def test_list_pages_newest_first(self, store: EventStore) -> None:
        created = [await new_match(store) for _ in range(5)]

        pages = [await store.list_matches(limit=2, offset=n) for n in (0, 2, 4)]

        assert [[row.match_id for row in page] for page in pages] == [
            created[:-3:-1],
            created[2:0:-1],
            created[:1],
        ]

    async def test_seat_tokens_map_to_their_seats(self, store: EventStore) -> None:
        match_id = await new_match(store)
        other = await new_match(store)
        await store.append(
            match_id,
            1,
            [event("seat_joined", seat=0)],
            Change(status="lobby", summary=Summary(), seats_taken=1, seat_token=(0, b"t0")),
        )
        await store.append(
            match_id,
            2,
            [event("seat_joined", seat=1)],
            Change(status="lobby", summary=Summary(), seats_taken=2, seat_token=(1, b"t1")),
        )

        assert await store.seat_for_token(match_id, b"t0") == 0
        assert await store.seat_for_token(match_id, b"t1") == 1
        assert await store.seat_for_token(match_id, b"t2") is None
        assert await store.seat_for_token(other, b"t0") is None
        # The other way round, for stream tickets: a seat's stored hash (none for a free seat).
        assert await store.seat_token_hash(match_id, 1) == b"t1"
        assert await store.seat_token_hash(match_id, 2) is None
        assert await store.seat_token_hash(other, 0) is None

    async def test_a_seat_given_a_second_token_is_refused(self, store: EventStore) -> None:
        match_id = await new_match(store)
        await store.append(
            match_id, 1, [], Change(status="lobby", summary=Summary(), seat_token=(0, b"t0"))
        )

        with pytest.raises(StoreError):
            await store.append(
                match_id,
                1,
                [event(card=1)],
                Change(status="lobby", summary=Summary(), seat_token=(0, b"t9")),
            )

        assert [e.version for e in await store.load(match_id)] == [1]

    async def test_an_unknown_match_reads_as_absent_and_refuses_appends(
        self, store: EventStore
    ) -> None:
        for missing in (str(uuid.uuid4()), "not-a-uuid"):
            assert await store.get_match(missing) is None
            assert await store.load(missing) == []
            assert await store.find_command(missing, "c") is None
            assert await store.seat_for_token(missing, b"t") is None
            assert await store.host_token_hash(missing) is None
            assert await store.server_seed(missing) is None
            with pytest.raises(UnknownMatch):
                await store.append(
                    missing, 1, [event()], Change(status="playing", summary=Summary())
                )

    async def test_bad_writes_are_refused_before_anything_lands(self, store: EventStore) -> None:
        match_id = await new_match(store)

        with pytest.raises(StoreError):
            await store.append(match_id, 1, [event()], Change(status="paused", summary=Summary()))
        with pytest.raises(StoreError):
            await store.append(
                match_id,
                1,
                [NewEvent(type="x", data=b"{not json")],
                Change(status="lobby", summary=Summary()),
            )

        assert [e.version for e in await store.load(match_id)] == [1]

    async def test_match_ids_are_compared_as_uuids(self, store: EventStore) -> None:
        match_id = await new_match(store)

        row = await store.get_match(match_id.upper())

        assert row is not None and row.match_id == match_id

    @pytest.mark.parametrize("count", [0, 1, 3])
    @pytest.mark.parametrize("with_token", [False, True])
    @pytest.mark.parametrize("with_command", [False, True])
    async def test_every_shape_of_append_writes_all_it_carries(
        self, store: EventStore, count: int, with_token: bool, with_command: bool
    ) -> None:
        match_id = await new_match(store)
        token = (0, b"token-0") if with_token else None
        record = (
            CommandRecord(
                command_id="c", seat=0, response=b"{}", status_code=200, version=1 + count
            )
            if with_command
            else None
        )
        new = [event(card=n) for n in range(count)]

        stored = await store.append(
            match_id,
            1,
            new,
            Change(
                status="playing",
                summary=Summary(names=(f"n {count}",)),
                seats_taken=1,
                seat_token=token,
                command=record,
            ),
        )

        loaded = await store.load(match_id)
        assert (
            [e.version for e in stored]
            == list(range(2, 2 + count))
            == [e.version for e in loaded[1:]]
        )
        assert [e.data for e in loaded[1:]] == [e.data for e in new]
        assert [e.hash for e in loaded] == chain([e.data for e in loaded])
        row = await store.get_match(match_id)
        assert row is not None
        assert (row.version, row.status, row.summary, row.seats_taken) == (
            1 + count,
            "playing",
            Summary(names=(f"n {count}",)),
            1,
        )
        assert row.head_hash == loaded[-1].hash
        assert await store.seat_for_token(match_id, b"token-0") == (0 if with_token else None)
        assert (await store.find_command(match_id, "c") is not None) == with_command

    async def test_a_summary_sent_again_unchanged_is_still_right_when_read_back(
        self,
        store: EventStore,
    ) -> None:
        match_id = await new_match(store, game="embers", tournament="spring")
        other = await new_match(store, game="embers", tournament="spring")
        a, ab = Summary(names=("a",)), Summary(names=("a", "b"))
        summaries = [a, a, ab, ab, a, Summary(names=("a",), result=WON)]
        seen = []
        for version, summary in enumerate(summaries, start=1):
            finished = summary.result is not None
            await store.append(
                match_id,
                version,
                [event(card=version)],
                Change(status="finished" if finished else "playing", summary=summary),
            )
            row = await store.get_match(match_id)
            assert row is not None
            seen.append(row.summary)

        assert seen == summaries
        listed = await store.list_matches(game="embers", status="finished", tournament="spring")
        assert [(r.match_id, r.summary, r.version) for r in listed] == [
            (match_id, summaries[-1], 7)
        ]
        assert [r.match_id for r in await store.list_matches(tournament="spring")] == [
            other,
            match_id,
        ]

    async def test_a_snapshot_is_kept_with_its_event_hash_until_a_newer_one_replaces_it(
        self, store: EventStore
    ) -> None:
        match_id = await new_match(store)
        stored = await store.append(match_id, 1, [event(card=n) for n in range(3)],
                                    Change(status="playing", summary=Summary()))
        assert await store.latest_snapshot(match_id) is None

        await store.save_snapshot(match_id, 3, "print-a", b"state at 3")
        await store.save_snapshot(match_id, 2, "print-a", b"state at 2")  # older: not kept

        kept = await store.latest_snapshot(match_id)
        assert kept is not None
        assert (kept.version, kept.hash, kept.fingerprint, kept.state) == (
            3, stored[1].hash, "print-a", b"state at 3")
        assert kept.checksum == snapshots.checksum("print-a", stored[1].hash, b"state at 3")
        await store.save_snapshot(match_id, 2, "print-b", b"new code at 2")  # other code: kept
        again = await store.latest_snapshot(match_id)
        assert again is not None and (again.version, again.fingerprint) == (2, "print-b")

    async def test_finished_matches_come_oldest_finish_first_with_all_their_events(
        self, store: EventStore
    ) -> None:
        finished = []
        for n in range(EXPORTED):
            match_id = await new_match(store, game="lantern" if n % 3 else "embers")
            await store.append(match_id, 1, [event(card=c) for c in range(1 + n % 3)],
                               Change(status="finished", summary=Summary(result=WON)))
            finished.append(match_id)
        await new_match(store)  # still in the lobby: never exported

        every = [f async for f in store.finished_matches(ExportFilter())]
        embers = [f async for f in store.finished_matches(ExportFilter(game="embers"),
                                                          events=False)]

        assert [f.row.match_id for f in every] == finished
        assert [len(f.events) for f in every] == [2 + n % 3 for n in range(EXPORTED)]
        assert all(f.events[0].match_id == f.row.match_id for f in every)
        assert [e.hash for e in every[-1].events] == chain([e.data for e in every[-1].events])
        assert every[0].server_seed == b"seed-" + finished[0].encode()
        assert [f.row.match_id for f in embers] == finished[::3]
        assert all(f.events == [] for f in embers)
        assert await store.count_finished(ExportFilter()) == EXPORTED
        assert await store.count_finished(ExportFilter(game="embers")) == len(finished[::3])

    async def test_a_bot_owing_a_move_is_due_after_its_delay(self, store: EventStore) -> None:
        match_id = await new_match(store)
        await store.append(match_id, 1, [event(card=1)],
                           Change(status="playing", summary=Summary(), owed=OwedSince(bots=2)))

        assert await store.due_matches(bot_delay=0) == [match_id]
        assert await store.due_matches(bot_delay=3600) == []
