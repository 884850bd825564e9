"""A random finished match (tests/replay/random_matches.py) written through a store as a server
would have written it: created, then one append per command, the last one finishing it with its
summary; so its export, replay and verification come out as the server's would."""

from __future__ import annotations

import hashlib

from domain.core.decider import Rulebook
from projections.summary import Summary
from service.store import Change, EventStore, NewEvent, NewMatch
from tests.replay.random_matches import Played


async def store_played(store: EventStore, game: Rulebook, played: Played, *,
                       at_once: bool = False) -> str:
    """Write ``played`` (a finished match of ``game``) through ``store``; its match id.

    ``at_once``: every command's events in one append, so that a live server on the same
    database never sees the match half written: a server's bots answer the announcement of an
    append, and would play a bot's move into a match left playing between two appends (then
    this write would clash with theirs)."""
    first, *rest = [NewEvent(type=e.type, data=e.data, metadata=e.metadata)
                    for e in played.events]
    await store.create_match(NewMatch(
        match_id=played.match_id, game=game.id, rules_version=game.rules_version,
        seats=len(played.summary.names) or game.min_seats, practice=False,
        tournament=played.tournament, label=None,
        seed_commitment=hashlib.sha256(played.server_seed).hexdigest(),
        server_seed=played.server_seed, host_token_hash=None, first=first, summary=Summary()))
    commands = [rest] if at_once else _by_command(rest)
    version = 1
    for n, events in enumerate(commands, start=1):
        last = n == len(commands)
        change = Change(status="finished" if last else "playing",
                        summary=played.summary if last else Summary())
        await store.append(played.match_id, version, events, change)
        version += len(events)
    return played.match_id


def _by_command(events: list[NewEvent]) -> list[list[NewEvent]]:
    """Events grouped by the command that caused them (its first event records the command)."""
    groups: list[list[NewEvent]] = []
    for event in events:
        if not groups or "command" in event.metadata:
            groups.append([])
        groups[-1].append(event)
    return groups
