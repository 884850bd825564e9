"""Deathwick's rules versions through the store: a match formed while version 1 was the latest
goes on, after a release that adds version 2, under version 1's rules, and replays and verifies
under them; a new match is version 2 (docs/rules/deathwick.md, "Rules versions").

Issue 31's third repro (DH19) played on both: the Clown's ghost is carried by a Mirror in the
version 1 match, as it was when that match began, and stays in the version 2 one. The memory
store is enough here: the store contract suite holds it to the Postgres store.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from domain.core.decider import Concede, Rulebook
from domain.core.reactions import Allow
from domain.deathwick import GAME_V1, GAME_V2
from domain.deathwick.commands import CastCard, ChooseClass, Haunt
from domain.registry import register, unregister
from projections.export import decode_export
from projections.verify import verify
from service.exports import ExportService
from service.loading import rules_of
from service.matches import MatchService, schemas
from service.store.memory import MemoryStore

NAMES = ["Mara", "Bryn", "Cato"]
CLOWN_DEAL = {  # issue 31, repro 3: Mara the Clown Haunts Bryn with the 4 of hearts
    "classes": "on", "first": 0,
    "candles": [["4H", "2C", "3C"], ["JD", "4C", "6C"]],
    "offers": [["clown", "hoarder", "hex"], ["hoarder", "hex", "watcher"],
               ["hoarder", "hex", "watcher"]],
}


@contextlib.contextmanager
def not_carried(rulebook: Rulebook) -> Iterator[None]:
    """A release without this rules version, for the length of a with-block."""
    unregister(rulebook)
    try:
        yield
    finally:
        register(rulebook)


def service(store: MemoryStore) -> MatchService:
    """A fresh service on the store, with a fixed seed: the same match every run."""
    return MatchService(store, seeds=lambda: b"deathwick versions")


async def send(store: MemoryStore, match_id: str, token: str, command: Any) -> None:
    """One seat's command through a fresh service (a restarted release), accepted."""
    body = schemas.SendCommand(command=command)
    status, _ = await service(store).command(match_id, token, body)
    assert status == 200


async def haunted_by_the_clown(store: MemoryStore) -> tuple[str, list[str]]:
    """A practice match in which the Clown's 4 of hearts is in Bryn's Shadow, Bryn to act."""
    matches = service(store)
    created = await matches.create(schemas.CreateMatch(game="deathwick", seats=3,
                                                       practice=True, options=CLOWN_DEAL))
    match_id = created.match_id
    tokens = [(await matches.join(match_id, schemas.JoinSeat(name=name))).token
              for name in NAMES]
    await matches.start(match_id, created.host_token)
    for token, name in zip(tokens, ("clown", "hoarder", "hoarder"), strict=True):
        await send(store, match_id, token, ChooseClass(name=name))
    await send(store, match_id, tokens[0], Haunt(card="4H", target=1))
    await send(store, match_id, tokens[1], Allow())
    return match_id, tokens


async def shadows(store: MemoryStore, match_id: str, token: str) -> list[list[str]]:
    """Every seat's Shadow as the seat's view shows it."""
    view = await service(store).view(match_id, token)
    return [[ghost.card for ghost in player.shadow] for player in view.board.players]


async def test_a_version_1_match_mirrors_as_version_1_after_version_2_arrives():
    """Given a Deathwick match formed while version 1 was the latest, and one formed after
    version 2 came, when Bryn Mirrors Cato in each on a restarted release carrying both, then
    the version 1 match carries the Clown's ghost to Cato and the version 2 one leaves it with
    Bryn (DH19); each, finished, replays and verifies under its own version."""
    store = MemoryStore()
    with not_carried(GAME_V2):
        old, old_tokens = await haunted_by_the_clown(store)
    new, new_tokens = await haunted_by_the_clown(store)
    assert rules_of(await store.get_match(old)) is GAME_V1
    assert rules_of(await store.get_match(new)) is GAME_V2

    for match_id, tokens in ((old, old_tokens), (new, new_tokens)):
        await send(store, match_id, tokens[1], CastCard(card="JD", target=2))
        await send(store, match_id, tokens[2], Allow())
    assert (await shadows(store, old, old_tokens[1]))[1:] == [[], ["4H"]]
    assert (await shadows(store, new, new_tokens[1]))[1:] == [["4H"], []]

    exports = ExportService(store)
    for match_id, tokens, version in ((old, old_tokens, "1"), (new, new_tokens, "2")):
        for token in (tokens[0], tokens[2]):
            await send(store, match_id, token, Concede())
        assert (await exports.replay(match_id)).rules_version == version
        document = decode_export(await exports.export(match_id))
        assert document.header.rules_version == version
        report = verify(document)
        assert report.ok, report.problem
