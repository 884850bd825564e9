"""Random finished matches of any registered game, recorded as the server records them.

Seats join, the match starts, then a seat the rules are waiting on plays one of its legal
actions, chosen by a seeded ``random.Random``, until the match ends. Each command's events
carry the server's metadata (service.matches.new_events), so an export or a store holds exactly
what the service would.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from domain.core import match
from domain.core.chain import GENESIS, link
from domain.core.decider import Game
from projections.export import MatchExport, build_export
from projections.summary import Summary, summary
from service.matches import new_events
from service.store import NewEvent, StoredEvent

NAMES = tuple(f"Seat {n}" for n in range(20))  # up to Deathwick's 20 seats
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)
MAX_COMMANDS = 20_000


class Played(msgspec.Struct, kw_only=True):
    """A finished match: its id, seed and each command's batch of events."""

    game: Game
    match_id: str
    seed: bytes
    batches: list[list[NewEvent]]
    summary: Summary

    def events(self) -> list[NewEvent]:
        """Every event, in order."""
        return [event for batch in self.batches for event in batch]


def play(game: Game, index: int, seats: int, options: dict[str, Any] | None = None) -> Played:
    """Random finished match ``index`` of ``game`` at ``seats`` seats."""
    chooser = random.Random(f"{game.id}/{index}")
    seed = hashlib.sha256(f"bench seed {game.id} {index}".encode()).digest()
    created = match.open_match(game, seats=seats, options=options or {}, practice=False,
                               tournament=None, label=None,
                               seed_commitment=hashlib.sha256(seed).hexdigest())
    batches = [new_events([created], seat=None, command=None, command_id=None)]
    state = match.evolve(game, None, created)
    commands = [(None, match.JoinSeat(name=NAMES[s])) for s in range(seats)]
    commands.append((None, match.StartMatch()))
    for n in range(MAX_COMMANDS):
        seat, command = commands[n] if n < len(commands) else _choose(game, state, chooser)
        events = match.decide(game, state, seat, command, seed)
        batches.append(new_events(events, seat=seat, command=command, command_id=f"c{n}"))
        state = match.fold(game, events, state)
        if match.status(game, state) == "finished":
            break
    match_id = str(uuid.UUID(int=chooser.getrandbits(128), version=4))
    return Played(game=game, match_id=match_id, seed=seed, batches=batches,
                  summary=summary(game, state, seed))


def _choose(game: Game, state: Any, chooser: random.Random) -> tuple[int, Any]:
    """A seat the rules wait on, and one of its legal actions."""
    seat = chooser.choice(game.to_act(state.game))
    return seat, chooser.choice(game.legal_actions(state.game, seat))


def stored(played: Played) -> list[StoredEvent]:
    """The events as the store would hold them: numbered, chained, timed."""
    out, head = [], GENESIS
    for version, event in enumerate(played.events(), start=1):
        head = link(head, event.data)
        metadata = msgspec.json.decode(msgspec.json.encode(event.metadata))
        out.append(StoredEvent(match_id=played.match_id, version=version, type=event.type,
                               data=event.data, metadata=metadata,
                               recorded_at=EPOCH + timedelta(milliseconds=version), hash=head))
    return out


def exported(played: Played) -> MatchExport:
    """The export document the server would build."""
    events = stored(played)
    return build_export(match_id=played.match_id, created_at=EPOCH,
                        finished_at=events[-1].recorded_at, server_seed=played.seed,
                        summary=played.summary, events=events)
