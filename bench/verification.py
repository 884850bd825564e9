"""Benchmark 3: finished matches verified per second on one core, for each registered game.

Random finished matches are exported as the server exports them and encoded to JSON bytes, as a
file would hold them. Timed, in one process and one thread: decoding each document and running
``projections.verify.verify`` on it (the commitment, every hash, every command re-decided, the
header and result), which is what `hearthlog verify` does per match. The rate is per second of
this process's CPU time (the machine is shared; wall-clock time is also given). Beside it, five
baselines on the same documents: a plain fold of their events (decode and evolve, nothing
checked); the rules alone, re-deciding every recorded command from the state it was decided in
(inputs prepared untimed: nothing read, hashed or compared); and three floors no verifier can go
under, since they use no rule at all: reading the document; reading it plus recomputing its hash
chain; and the hash chain alone, over the events' bytes already in memory (one SHA-256 call per
event, nothing read: CPython's and OpenSSL's cost, not ours). Then the command itself: the same
documents as one NDJSON file, `hearthlog verify --jobs 1` against `--jobs N` (one worker
process per core), matches per wall second, start-up included, beside the machine's ceiling for
that speed-up (a CPU-bound loop once per core at the same time, against once alone). Run:

    PYTHONPATH=. python -m bench.verification [--matches 400] [--rounds 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from bench import common
from bench.matches import exported, play
from domain.core import match
from domain.core.chain import GENESIS, chain, link
from domain.core.codec import as_typed, event_decoder, recorded_command_decoder
from domain.games import GAMES
from projections.export import MatchExport
from projections.verify import verify
from service.workers import usable_cores

_export = msgspec.json.Decoder(MatchExport)


def documents(game_id: str, count: int) -> list[bytes]:
    """``count`` random finished matches of a game at 2 to 6 seats, as export files."""
    game = GAMES[game_id]
    seats = range(game.min_seats, game.max_seats + 1)
    return [msgspec.json.encode(exported(play(game, i, seats[i % len(seats)])))
            for i in range(count)]


def check(raw: bytes) -> None:
    """Decode one export file and verify it; it must pass."""
    report = verify(_export.decode(raw))
    if not report.ok:
        raise AssertionError(f"{report.match_id}: {report.problem}")


def read_only(raw: bytes) -> None:
    """Floor 1: decode the document, as any verifier must."""
    _export.decode(raw)


def read_and_chain(raw: bytes) -> None:
    """Floor 2: decode the document and recompute every event's hash (no rule involved)."""
    previous = GENESIS
    for event in _export.decode(raw).events:
        previous = link(previous, bytes(event.data))


def hash_only(events: list[bytes]) -> None:
    """Floor 3: the hash chain alone, over the events' bytes already in memory (nothing read)."""
    chain(events)


def fold_only(raw: bytes) -> None:
    """The baseline: decode the document and fold its events, checking nothing."""
    document = _export.decode(raw)
    game = GAMES[document.header.game]
    decoder = event_decoder(game)
    match.fold(game, [decoder.decode(bytes(event.data)) for event in document.events])


def decisions(raw: bytes) -> list[tuple[Any, ...]]:
    """Each recorded command with the state it was decided in: the rules' inputs, prepared."""
    document = _export.decode(raw)
    game = GAMES[document.header.game]
    seed = bytes.fromhex(document.header.server_seed)
    commands = recorded_command_decoder(game)
    state = match.evolve(game, None, event_decoder(game).decode(bytes(document.events[0].data)))
    inputs = []
    for event in document.events[1:]:
        if event.metadata.command is not None:
            decision = (game, state, event.metadata.seat,
                        as_typed(commands, event.metadata.command), seed)
            inputs.append(decision)
            state = match.decide_and_evolve(*decision)[1]
    return inputs


def rules_only(inputs: list[tuple[Any, ...]]) -> None:
    """The rules alone: every recorded command re-decided (and its events recorded)."""
    for decision in inputs:
        match.decide_and_evolve(*decision)


def timed(name: str, work: Callable[[Any], None], docs: list[Any]) -> dict[str, Any]:
    """Run ``work`` over every document once; matches per CPU second and per wall second."""
    cpu, wall = time.process_time(), time.perf_counter()
    for doc in docs:
        work(doc)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"name": name, "matches": len(docs), "cpu_seconds": round(cpu, 3),
            "per_cpu_second": round(len(docs) / cpu, 1),
            "per_wall_second": round(len(docs) / wall, 1)}


SPIN = "n = 0\nfor i in range(8_000_000):\n    n += i"


def at_once(commands: list[list[str]]) -> float:
    """Wall seconds for processes started together to all finish."""
    began = time.perf_counter()
    running = [subprocess.Popen(c, stdout=subprocess.DEVNULL) for c in commands]
    if any(process.wait() for process in running):
        raise RuntimeError(f"a benchmark process failed: {commands[0]}")
    return time.perf_counter() - began


def command(docs: list[bytes], rounds: int) -> dict[str, Any]:
    """`hearthlog verify FILE` with one job and with one per core, interleaved; wall rates.

    Beside it, the machine's own ceiling: a CPU-bound Python loop run alone and then once per
    core at the same time (a shared machine's cores do not always add up).
    """
    cores, spin = usable_cores(), [sys.executable, "-c", SPIN]
    with tempfile.TemporaryDirectory(prefix="hearthlog-bench-verify-") as folder:
        path = Path(folder) / "matches.ndjson"
        path.write_bytes(b"".join(raw + b"\n" for raw in docs))
        verify_with = [sys.executable, "-m", "service.cli.main", "verify", str(path), "--jobs"]
        runs = {
            "one_job": [[*verify_with, "1"]],
            "every_core": [[*verify_with, str(cores)]],
            "spin_alone": [spin],
            "spin_on_every_core": [spin] * cores,
        }
        walls: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(rounds):
            for name, commands in runs.items():
                walls[name].append(at_once(commands))
    wall = {name: common.median(values) for name, values in walls.items()}
    return {"cores": cores, "one_job_per_wall_second": round(len(docs) / wall["one_job"], 1),
            "every_core_per_wall_second": round(len(docs) / wall["every_core"], 1),
            "speedup": round(wall["one_job"] / wall["every_core"], 2),
            "machine_ceiling": round(cores * wall["spin_alone"] / wall["spin_on_every_core"], 2)}


def run(count: int, rounds: int) -> dict[str, Any]:
    """Every registered game: verification, the plain fold and the floors, in interleaved rounds."""
    games = []
    for game_id in sorted(GAMES):
        docs = documents(game_id, count)
        in_memory = [[bytes(e.data) for e in _export.decode(raw).events] for raw in docs]
        events = sum(len(datas) for datas in in_memory)
        work: dict[str, tuple[Callable[[Any], None], list[Any]]] = {
            "read": (read_only, docs),
            "hash": (hash_only, in_memory),
            "chain": (read_and_chain, docs),
            "fold": (fold_only, docs),
            "rules": (rules_only, [decisions(raw) for raw in docs]),
            "verify": (check, docs),
        }
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in work}
        for _ in range(rounds):
            for name, (step, inputs) in work.items():
                runs[name].append(timed(name, step, inputs))
        best = {name: sorted(r, key=lambda x: x["per_cpu_second"])[(rounds - 1) // 2]
                for name, r in runs.items()}
        print(f"  verification {game_id}: {best['verify']['per_cpu_second']:.0f} matches per "
              f"CPU second (fold only: {best['fold']['per_cpu_second']:.0f}, the rules alone: "
              f"{best['rules']['per_cpu_second']:.0f}, reading and "
              f"hashing only: {best['chain']['per_cpu_second']:.0f}, the hash chain alone: "
              f"{best['hash']['per_cpu_second']:.0f})", flush=True)
        best["command"] = command(docs, rounds)
        print(f"  hearthlog verify {game_id}: {best['command']}", flush=True)
        games.append({"game": game_id, "matches": count, "events": events, **best})
    return {"benchmark": "verification", "rounds": rounds, "games": games}


def main() -> None:
    """Run the benchmark and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(common.run_and_save("verification", lambda: run(args.matches, args.rounds)))


if __name__ == "__main__":
    main()
