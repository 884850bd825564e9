"""Random finished matches of any game, recorded exactly as the server records them.

Each match (Wick & Ember unless a rulebook is given) is driven through domain.core.match (lobby, seats with client seeds, some of them bots,
start, random legal plays, now and then a concession or a turn played for a seat out of time,
some with a turn clock); each command's events get the server's metadata
(service.matches.new_events) and hash chain, so the export builder sees what the store holds.
Also used by bench/export_memory.py to fill a database quickly.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from domain.core import match
from domain.core.chain import GENESIS, link
from domain.core.decider import Concede, Rulebook
from domain.core.errors import RuleViolation
from domain.games import GAMES
from projections.export import MatchExport, build_export
from projections.summary import Summary, summary
from service.matches import new_events
from service.store import StoredEvent

GAME = GAMES["wick-and-ember"]
NAMES = ("Ash", "Bryn", "Cato", "Dell", "Esme", "Fenn", "Gale", "Hale", "Iris", "Jude", "Kit",
         "Lark", "Mara", "Nell", "Oren", "Pip", "Quin", "Rook", "Sage", "Tam")  # up to 20 seats
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)
CONCEDE_CHANCE = 0.004
TIME_OUT_CHANCE = 0.02
BOT_CHANCE = 0.1
MAX_COMMANDS = 5000

OnBatch = Callable[[int, match.MatchState], None]


class Played(msgspec.Struct, kw_only=True):
    """A finished match as the store would hold it."""

    match_id: str
    server_seed: bytes
    summary: Summary
    events: list[StoredEvent]
    created_at: datetime
    finished_at: datetime
    tournament: str | None


def options_for(game: Rulebook, chooser: random.Random, seats: int) -> dict[str, Any]:
    """Wick & Ember: short matches over both decks, as a host would send them; Ember: a short
    turn cap and the lowest Call (random play rarely reaches it); any other game: its default
    options."""
    if game.id == "ember":
        return {"call_at": 20, "turn_cap": chooser.randint(10, 12)}
    if game.id != GAME.id:
        return {}
    options: dict[str, Any] = {"match_length": "short"}
    if seats in (3, 4):
        options["deck"] = chooser.choice(["standard", "expanded"])
    if chooser.random() < 0.5:
        options = {**options, "ember_target": chooser.randint(1, 2)}
    return options


def play(
    index: int,
    on_batch: OnBatch | None = None,
    tournament: str | None = None,
    game: Rulebook = GAME,
) -> Played:
    """Random finished match ``index`` of a game; ``on_batch`` sees (version, state) after each
    command."""
    chooser = random.Random(index)
    seed = hashlib.sha256(f"server seed {index}".encode()).digest()
    seats = game.min_seats + index % (game.max_seats - game.min_seats + 1)
    recorder = _Recorder(index)
    created = match.open_match(
        game,
        seats=seats,
        options=options_for(game, chooser, seats),
        practice=False,
        tournament=tournament,
        label=f"random {index}",
        seed_commitment=hashlib.sha256(seed).hexdigest(),
        turn_seconds=chooser.choice([None, None, 30]),
    )
    recorder.add([created], None, None)
    state: match.MatchState = match.evolve(game, None, created)
    for seat, command in _commands(chooser, seats):
        if seat == "play":
            seat, command = _next_play(game, chooser, state, seed)
        events = match.decide(game, state, seat, command, seed)
        recorder.add(events, seat, command)
        state = match.fold(game, events, state)
        if on_batch is not None:
            on_batch(len(recorder.events), state)
        if match.status(game, state) == "finished":
            return recorder.played(seed, summary(game, state, seed), tournament)
    raise AssertionError(f"match {index} did not end within {MAX_COMMANDS} commands")


def _commands(chooser: random.Random, seats: int) -> Any:
    """Joins (some with client seeds), the start, then plays chosen once the state is known."""
    for seat in range(seats):
        client_seed = (
            f"seat {seat} dice {chooser.randrange(10**6)}" if chooser.random() < 0.6 else None
        )
        if chooser.random() < BOT_CHANCE:
            yield None, match.JoinSeat(name="", client_seed=client_seed, bot="random")
        else:
            yield None, match.JoinSeat(name=NAMES[seat], client_seed=client_seed)
    yield None, match.StartMatch()
    for _ in range(MAX_COMMANDS):
        yield "play", None


def _next_play(
    game: Rulebook, chooser: random.Random, state: Any, seed: bytes
) -> tuple[int | None, Any]:
    """Now and then a seat still in concedes or runs out of time (the server plays for it);
    otherwise a seat that may act (one the rules wait on, or one acting out of turn) plays at
    random; only a seat the rules wait on runs out of time."""
    table = state.game
    chance = chooser.random()
    if chance < CONCEDE_CHANCE:
        return chooser.choice(still_in(game, state, seed)), Concede()
    waiting = game.acting(table)
    seat = waiting[0] if len(waiting) == 1 else chooser.choice(waiting)
    action = chooser.choice(game.legal_actions(table, seat))
    if chance > 1 - TIME_OUT_CHANCE and seat in game.to_act(table):
        return None, match.TimeOut(seat=seat, action=msgspec.to_builtins(action))
    return seat, action


def still_in(game: Rulebook, state: Any, seed: bytes) -> list[int]:
    """The seats whose concession the rules would accept now (any game: ask decide)."""
    found = []
    for seat in range(state.created.seats):
        try:
            match.decide(game, state, seat, Concede(), seed)
        except RuleViolation:
            continue
        found.append(seat)
    return found


class _Recorder:
    """Stored events as the server writes them: metadata, hash chain, increasing times."""

    def __init__(self, index: int) -> None:
        self.match_id = str(uuid.UUID(int=random.Random(-index).getrandbits(128), version=4))
        self.started = EPOCH + timedelta(minutes=index)
        self.events: list[StoredEvent] = []
        self.head = GENESIS

    def add(self, events: list[Any], seat: int | None, command: Any) -> None:
        """Append one command's events."""
        command_id = None if command is None else f"c{len(self.events)}"
        for new in new_events(events, seat=seat, command=command, command_id=command_id):
            self.head = link(self.head, new.data)
            version = len(self.events) + 1
            at = self.started + timedelta(milliseconds=version)
            self.events.append(
                StoredEvent(
                    match_id=self.match_id,
                    version=version,
                    type=new.type,
                    data=new.data,
                    metadata=msgspec.json.decode(msgspec.json.encode(new.metadata)),
                    recorded_at=at,
                    hash=self.head,
                )
            )

    def played(self, seed: bytes, summary: Summary, tournament: str | None) -> Played:
        """The finished match."""
        return Played(
            match_id=self.match_id,
            server_seed=seed,
            summary=summary,
            events=self.events,
            created_at=self.started,
            finished_at=self.events[-1].recorded_at,
            tournament=tournament,
        )


def exported(played: Played) -> MatchExport:
    """The export document the server would build for a played match."""
    return build_export(
        match_id=played.match_id,
        created_at=played.created_at,
        finished_at=played.finished_at,
        server_seed=played.server_seed,
        summary=played.summary,
        events=played.events,
    )


MATCH_COLUMNS = (
    "match_id",
    "game",
    "rules_version",
    "status",
    "seats",
    "seats_taken",
    "practice",
    "tournament",
    "label",
    "seed_commitment",
    "server_seed",
    "summary",
    "created_at",
    "finished_at",
)
HEAD_COLUMNS = ("match_id", "version", "head_hash", "updated_at")
EVENT_COLUMNS = ("match_id", "version", "type", "data", "metadata", "recorded_at", "hash")


async def copy_rows(conn: Any, matches: list[tuple], heads: list[tuple], events: list[tuple]) -> None:
    """COPY rows of MATCH_COLUMNS, HEAD_COLUMNS and EVENT_COLUMNS into their tables (a pool
    connection of service.store.provisioning.create_pool, whose jsonb codec takes Python values)."""
    await conn.copy_records_to_table("matches", columns=MATCH_COLUMNS, records=matches)
    await conn.copy_records_to_table("heads", columns=HEAD_COLUMNS, records=heads)
    await conn.copy_records_to_table("events", columns=EVENT_COLUMNS, records=events)


async def insert_finished(conn: Any, matches: list[Played]) -> None:
    """COPY finished matches straight into the matches, heads and events tables."""
    heads = [(uuid.UUID(m.match_id), len(m.events), m.events[-1].hash, m.finished_at)
             for m in matches]
    events = [
        (
            uuid.UUID(m.match_id),
            e.version,
            e.type,
            e.data.decode(),
            e.metadata,
            e.recorded_at,
            e.hash,
        )
        for m in matches
        for e in m.events
    ]
    await copy_rows(conn, [_match_record(m) for m in matches], heads, events)


def _match_record(played: Played) -> tuple[Any, ...]:
    """One row of the matches table for a finished match."""
    first = msgspec.json.decode(played.events[0].data)
    return (
        uuid.UUID(played.match_id),
        first["game"],
        first["rules_version"],
        "finished",
        first["seats"],
        first["seats"],
        False,
        played.tournament,
        first.get("label"),
        first["seed_commitment"],
        played.server_seed,
        played.summary,
        played.created_at,
        played.finished_at,
    )
