"""The bundle of a finished tournament, streamed a line at a time in bounded memory.

The header (the seed revealed), then each round's line followed by its matches' export lines in
table order (each match read from the store on its own, so one match is held at a time), then
the standings. The format is projections.tournament's (docs/tournaments.md); the same lines come
from ``GET /tournaments/{id}/export`` and ``hearthlog export --tournament T --bundle``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from domain.tournament import standings, voided
from projections.export import encode_export
from projections.tournament import encode_header, encode_match, encode_round, encode_standings
from service.errors import ServiceError
from service.exports import chunked, document, guarded
from service.store import EventStore, FinishedMatch
from service.tournament.tournaments import TournamentService
from service.tournament.views import Held


async def bundle_lines(service: TournamentService, tournament_id: str) -> AsyncIterator[bytes]:
    """The bundle's lines in chunks; 409 (before anything is sent) while it is not finished."""
    held = await service.held(tournament_id)
    if held.row.status != "finished":
        raise ServiceError(409, f"tournament {held.row.tournament_id} is not finished (it is "
                           f"{held.row.status}); its bundle reveals the seed that pairs its "
                           "rounds, so it is only available once the last round is over")
    seed = await service.lot_seed(held)
    lines = _lines(held, seed, service.matches.store)
    return chunked(guarded(lines, f"the bundle of tournament {held.row.tournament_id}"))


async def _lines(held: Held, seed: bytes, store: EventStore) -> AsyncIterator[bytes]:
    """Header, rounds with their matches, standings: one line each."""
    row = held.row
    yield encode_header(tournament_id=row.tournament_id, name=row.name, settings=held.settings,
                        seed=seed, seed_commitment=row.seed_commitment,
                        entrants=held.domain_entrants(), created_at=row.created_at,
                        finished_at=row.finished_at, actions=held.actions())
    for stored in held.rounds:
        yield encode_round(held.pairing(stored.round), stored.matches)
        void = set(voided(held.actions(), stored.round))
        for table, match_id in stored.matches.items():
            if table not in void:  # a void table has no match to show
                yield encode_match(stored.round, table, await _export(store, match_id))
    history = held.history(complete_only=True)
    ranked = standings(held.settings, seed, held.domain_entrants(), history)
    yield encode_standings(len(history), ranked)


async def _export(store: EventStore, match_id: str) -> bytes:
    """One finished match's export document, read on its own."""
    row = await store.get_match(match_id)
    seed = await store.server_seed(match_id)
    if row is None or seed is None or row.status != "finished":
        raise ServiceError(409, f"match {match_id} of the tournament is not finished")
    events = await store.load(match_id)
    return encode_export(document(FinishedMatch(row=row, server_seed=seed, events=events)))
