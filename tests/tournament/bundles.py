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
from domain.core.decider import Concede, Rulebook
from domain.games import GAMES
from domain.tournament import (
    Action,
    Entrant,
    Pairing,
    RoundRecord,
    Settings,
    TableResult,
    ended,
    forfeits,
    pair_round,
    rounds_total,
    standings,
    tournament_id,
    voided,
)
from projections.export import encode_export
from projections.summary import summary
from projections.tournament import encode_header, encode_match, encode_round, encode_standings
from tests.replay.random_matches import EPOCH, Played, _next_play, _Recorder, exported
from tests.tournament.scripted import people

NAME = "Winter Cup"
OPTIONS = {"match_length": "short"}

Rig = Callable[[Pairing], Pairing]


def entrants(count: int, bots: int = 0) -> list[Entrant]:
    """``count`` entrants, the last ``bots`` of them random bots."""
    return [
        Entrant(number=e.number, name=e.name, bot="random" if e.number >= count - bots else None)
        for e in people(count)
    ]


def identity(settings: Settings, seed: bytes) -> str:
    """The tournament id its seed commitment and settings give (domain.tournament)."""
    return tournament_id(hashlib.sha256(seed).hexdigest(), NAME, settings)


def play_table(
    game: Rulebook, seats: list[Entrant], index: int, label: str, settings: Settings,
    tid: str, forfeit: int | None = None,
) -> Played:
    """One tournament table played to its end with random legal plays (the seat
    ``forfeit`` conceding first)."""
    chooser = random.Random(index)
    seed = hashlib.sha256(f"table seed {index}".encode()).digest()
    recorder = _Recorder(index)
    recorder.match_id = str(uuid.uuid5(uuid.UUID(tid), label))
    created = match.open_match(
        game, seats=len(seats), options=settings.options, practice=False,
        tournament=tid, label=label, seed_commitment=hashlib.sha256(seed).hexdigest(),
        turn_seconds=settings.turn_seconds,
    )
    recorder.add([created], None, None)
    state = match.evolve(game, None, created)
    for entrant in seats:
        command = match.JoinSeat(name=entrant.name, bot=entrant.bot)
        state = _apply(game, state, recorder, None, command, seed)
    state = _apply(game, state, recorder, None, match.StartMatch(), seed)
    if forfeit is not None:
        state = _apply(game, state, recorder, forfeit, Concede(), seed)
    while match.status(game, state) != "finished":
        seat, command = _next_play(game, chooser, state, seed)
        state = _apply(game, state, recorder, seat, command, seed)
    return recorder.played(seed, summary(game, state, seed), tid)


def _apply(game: Rulebook, state, recorder: _Recorder, seat, command, seed: bytes):
    """Decide one command, record its events and fold them."""
    events = match.decide(game, state, seat, command, seed)
    recorder.add(events, seat, command)
    return match.fold(game, events, state)


def bundle(
    settings: Settings, people: list[Entrant], seed: bytes, rig: Rig | None = None,
    actions: list[Action] | None = None, rounds: int | None = None,
) -> list[bytes]:
    """A whole tournament played and written as its bundle's lines (newlines included);
    ``rig`` lets a dishonest server change a pairing before its matches are played;
    ``actions`` are played as recorded (forfeits conceded first, void tables not played);
    ``rounds`` stops it early (else it runs until its last round or until none can follow)."""
    game, done = GAMES[settings.game], actions or []
    named, tid = {e.number: e for e in people}, identity(settings, seed)
    history: list[RoundRecord] = []
    body: list[bytes] = []
    gone = forfeits(done)
    total = rounds if rounds is not None else rounds_total(settings, people)
    while len(history) < total and ended(settings, seed, people, history) is None:
        pairing = pair_round(settings, seed, people, history)
        pairing = rig(pairing) if rig else pairing
        ids, matches, results = {}, [], []
        void = voided(done, pairing.round)
        for table in pairing.tables:
            label = f"round {pairing.round} table {table.number}"
            ids[table.number] = str(uuid.uuid5(uuid.UUID(tid), label))
            if table.number in void:
                continue
            out = gone.get((pairing.round, table.number), [])
            played = play_table(game, [named[n] for n in table.seats],
                                1000 * pairing.round + table.number, label, settings, tid,
                                table.seats.index(out[0]) if out else None)
            matches.append(encode_match(pairing.round, table.number,
                                        encode_export(exported(played))))
            result = played.summary.result
            assert result is not None, f"{label} did not finish"
            results.append(TableResult(round=pairing.round, table=table.number,
                                       placements=list(result.placements), forfeited=out))
        body += [encode_round(pairing, ids), *matches]
        history.append(RoundRecord(pairing=pairing, results=results, void=void))
    head = encode_header(
        tournament_id=tid, name=NAME, settings=settings, seed=seed,
        seed_commitment=hashlib.sha256(seed).hexdigest(), entrants=people, created_at=EPOCH,
        finished_at=EPOCH + timedelta(hours=3), actions=done,
    )
    final = encode_standings(len(history), standings(settings, seed, people, history))
    return [head, *body, final]
