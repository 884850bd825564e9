"""Whole tournaments played with the domain, and their bundles, as the server would write them.

Each table's match is driven through domain.core.match exactly as tests/replay/random_matches.py
drives one (random legal plays, now and then a concession or a time-out), with the entrants'
names in the round's seat order and the tournament's tag, so its export is a real one.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Callable
from datetime import timedelta

from domain.core import match
from domain.core.decider import Rulebook
from domain.games import GAMES
from domain.tournament import (
    Entrant,
    Pairing,
    RoundRecord,
    Settings,
    TableResult,
    pair_round,
    rounds_total,
    standings,
)
from projections.export import encode_export
from projections.summary import summary
from projections.tournament import encode_header, encode_match, encode_round, encode_standings
from tests.replay.random_matches import EPOCH, Played, _next_play, _Recorder, exported
from tests.tournament.scripted import people

TOURNAMENT_ID = "5f0c8d7e-1a2b-4c3d-9e8f-0a1b2c3d4e5f"
OPTIONS = {"match_length": "short"}

Rig = Callable[[Pairing], Pairing]


def entrants(count: int, bots: int = 0) -> list[Entrant]:
    """``count`` entrants, the last ``bots`` of them random bots."""
    return [
        Entrant(number=e.number, name=e.name, bot="random" if e.number >= count - bots else None)
        for e in people(count)
    ]


def play_table(
    game: Rulebook, seats: list[Entrant], index: int, label: str, settings: Settings
) -> Played:
    """One tournament table played to its end with random legal plays."""
    chooser = random.Random(index)
    seed = hashlib.sha256(f"table seed {index}".encode()).digest()
    recorder = _Recorder(index)
    recorder.match_id = str(uuid.uuid5(uuid.UUID(TOURNAMENT_ID), label))
    created = match.open_match(
        game, seats=len(seats), options=settings.options, practice=False,
        tournament=TOURNAMENT_ID, label=label, seed_commitment=hashlib.sha256(seed).hexdigest(),
        turn_seconds=settings.turn_seconds,
    )
    recorder.add([created], None, None)
    state = match.evolve(game, None, created)
    for entrant in seats:
        command = match.JoinSeat(name=entrant.name, bot=entrant.bot)
        state = _apply(game, state, recorder, None, command, seed)
    state = _apply(game, state, recorder, None, match.StartMatch(), seed)
    while match.status(game, state) != "finished":
        seat, command = _next_play(game, chooser, state, seed)
        state = _apply(game, state, recorder, seat, command, seed)
    return recorder.played(seed, summary(game, state, seed), TOURNAMENT_ID)


def _apply(game: Rulebook, state, recorder: _Recorder, seat, command, seed: bytes):
    """Decide one command, record its events and fold them."""
    events = match.decide(game, state, seat, command, seed)
    recorder.add(events, seat, command)
    return match.fold(game, events, state)


def bundle(
    settings: Settings, people: list[Entrant], seed: bytes, rig: Rig | None = None
) -> list[bytes]:
    """A whole tournament played and written as its bundle's lines (newlines included);
    ``rig`` lets a dishonest server change a pairing before its matches are played."""
    game = GAMES[settings.game]
    named = {e.number: e for e in people}
    history: list[RoundRecord] = []
    body: list[bytes] = []
    for _ in range(rounds_total(settings, people)):
        pairing = pair_round(settings, seed, people, history)
        pairing = rig(pairing) if rig else pairing
        ids, matches, results = {}, [], []
        for table in pairing.tables:
            label = f"round {pairing.round} table {table.number}"
            played = play_table(game, [named[n] for n in table.seats],
                                1000 * pairing.round + table.number, label, settings)
            ids[table.number] = played.match_id
            matches.append(encode_match(pairing.round, table.number,
                                        encode_export(exported(played))))
            result = played.summary.result
            assert result is not None, f"{label} did not finish"
            results.append(TableResult(round=pairing.round, table=table.number,
                                       placements=list(result.placements)))
        body += [encode_round(pairing, ids), *matches]
        history.append(RoundRecord(pairing=pairing, results=results))
    head = encode_header(
        tournament_id=TOURNAMENT_ID, name="Winter Cup", settings=settings, seed=seed,
        seed_commitment=hashlib.sha256(seed).hexdigest(), entrants=people, created_at=EPOCH,
        finished_at=EPOCH + timedelta(hours=3),
    )
    final = encode_standings(len(history), standings(settings, seed, people, history))
    return [head, *body, final]
