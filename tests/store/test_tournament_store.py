"""The tournament store on Postgres (migrations 0008, 0009): names, numbers, rounds and the sweep's
query. (There is no in-memory tournament store: the service's tests run on Postgres.)"""

from __future__ import annotations

import uuid

import pytest

from service.store.tournaments import NameTaken, NewEntrant, NewTournament, TournamentStore


def entrant(name: str, token_hash: bytes | None, bot: str | None = None) -> NewEntrant:
    """An entrant to register, its name compared case-folded."""
    return NewEntrant(name=name, name_key=name.casefold(), bot=bot, token_hash=token_hash)


async def new_tournament(store: TournamentStore) -> str:
    """A tournament in registration; its id."""
    tid = str(uuid.uuid4())
    await store.create(NewTournament(
        tournament_id=tid, name="Store Cup", settings={"game": "tally"}, auto_advance=True,
        seed=b"s" * 32, seed_commitment="c0ffee", organizer_token_hash=b"o" * 32))
    return tid


async def test_entrants_are_numbered_in_order_and_a_name_in_another_case_is_taken(pool):
    """Given Ash and Bryn registered, when "ASH" registers, then NameTaken and nothing is
    added; the next entrant after that is number 2."""
    store = TournamentStore(pool)
    tid = await new_tournament(store)
    for name in ("Ash", "Bryn"):
        await store.register(tid, entrant(name, name.encode()), 10)
    with pytest.raises(NameTaken):
        await store.register(tid, NewEntrant(name="ASH", name_key="ash", bot=None,
                                             token_hash=b"other"), 10)
    assert await store.register(tid, entrant("Cole", None, "random"), 10) == 2
    assert [(e.number, e.name, e.bot) for e in await store.entrants(tid)] == [
        (0, "Ash", None), (1, "Bryn", None), (2, "Cole", "random")]
    assert await store.entrant_for_token(tid, b"Bryn") == 1
    assert await store.entrant_for_token(tid, b"nobody") is None


async def test_the_sweep_finds_a_running_round_only_while_none_of_its_tables_is_in_play(pool):
    """Given a started round whose matches are not made yet, then the sweep lists it; once
    one of its tables is in play, it does not; a tournament in registration never."""
    store = TournamentStore(pool)
    waiting, running = await new_tournament(store), await new_tournament(store)
    match_id = str(uuid.uuid4())
    await store.add_round(await store.get(running), {"round": 1, "tables": [], "byes": []},
                          {1: match_id})
    assert await store.needing_sweep() == [running]
    await pool.execute(
        """INSERT INTO matches (match_id, game, rules_version, status, seats, seed_commitment,
            server_seed) VALUES ($1, 'tally', '1', 'playing', 2, 'c', 's')""",
        uuid.UUID(match_id))
    assert await store.needing_sweep() == []
    assert waiting not in await store.needing_sweep()
    assert [r.matches for r in await store.rounds(running)] == [{1: match_id}]
