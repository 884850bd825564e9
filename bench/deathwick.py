"""Benchmark: Deathwick at 20 seats beside Wick & Ember, in one process (docs/benchmarks.md).

1. The command path: random finished matches (20-seat Deathwick, 6-seat Wick & Ember), every
   recorded command decided again through ``domain.core.match.decide_and_evolve`` from the state
   it was decided in (what the service does per command, without I/O); CPU microseconds per
   command.
2. A full replay: every match's events decoded and folded from the first (``projections.replay``
   state_at over the whole match); CPU microseconds per event.
3. Fan-out: one Deathwick match followed in one process by each of its seats and 50 spectators
   through ``service.live.hub.open_follow`` and the SSE encoder (what GET /matches/{id}/stream runs,
   without the socket), on the memory store; per append (a random legal command, not counted),
   the CPU until every stream has sent it: 20 seats against 2 seats, the ratio stated.

Run: ``PYTHONPATH=. python -m bench.deathwick [--matches 6] [--appends 40] [--spectators 50]``
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from typing import Any

import msgspec

from bench import common
from bench.fanout import QUIET, Streams
from bench.matches import play, stored
from domain.core import match
from domain.core.codec import event_decoder, recorded_command_decoder
from domain.games import GAMES
from projections.replay import state_at


def command_path(game_id: str, seats: int, count: int) -> dict[str, float]:
    """CPU microseconds per command re-decided, and per event of a full replay."""
    game = GAMES[game_id]
    played = [play(game, index, seats) for index in range(count)]
    decode, typed = recorded_command_decoder(game), event_decoder(game)
    commands, events, decide_cpu, fold_cpu = 0, 0, 0.0, 0.0
    for one in played:
        events_in, state = stored(one), None
        start = time.process_time()
        state_at(game, events_in)
        fold_cpu += time.process_time() - start
        events += len(events_in)
        for batch in one.batches:
            meta = batch[0].metadata
            if state is not None and "command" in meta and isinstance(state, match.Table):
                command = decode.decode(msgspec.json.encode(meta["command"]))
                start = time.process_time()
                match.decide_and_evolve(game, state, meta.get("seat"), command, one.seed)
                decide_cpu += time.process_time() - start
                commands += 1
            state = match.fold(game, [typed.decode(e.data) for e in batch], state)
    return {"matches": count, "commands": commands, "events": events,
            "us_per_command": round(decide_cpu / commands * 1e6, 1),
            "us_per_replayed_event": round(fold_cpu / events * 1e6, 2)}


async def fanout(seats: int, appends: int, spectators: int, seed: int) -> float:
    """Median CPU ms per append until every stream (each seat, the spectators) has sent it."""
    import service.live.hub as live
    from service import schemas
    from service.http.api.stream import messages
    from service.matches import MatchService
    from service.store.memory import MemoryStore

    store = MemoryStore()
    service, hub = MatchService(store), live.Hub()
    # The commands go through another service on the same store, as another process's would:
    # the playing service hands its own appends to its feeds inside the command (docs/live.md),
    # which would leave the fold out of the CPU timed from hub.publish below.
    writer = MatchService(store)
    created = await service.create(schemas.CreateMatch(game="deathwick", seats=seats,
                                                       options={"classes": "off"}))
    tokens = [(await service.join(created.match_id, schemas.JoinSeat(name=f"Seat {n}"))).token
              for n in range(seats)]
    await service.start(created.match_id, created.host_token)
    viewers = [*tokens, *[None] * spectators]
    streams = Streams(len(viewers))
    for index, token in enumerate(viewers):
        follow = await live.open_follow(service, hub, created.match_id, token, 0, QUIET)
        streams.start(index, messages(follow))
    await streams.reach(int((await service.summary(created.match_id)).version))
    rng, cpu_ms = random.Random(seed), []
    for _ in range(appends):
        version = await _one_command(writer, created.match_id, tokens, rng)
        if not version:
            break
        start = time.process_time()
        hub.publish(created.match_id, version)
        await streams.reach(version)
        cpu_ms.append((time.process_time() - start) * 1000)
    await streams.stop()
    return statistics.median(cpu_ms)


async def _one_command(service: Any, match_id: str, tokens: list[str], rng: random.Random) -> int:
    """One random legal command of a seat that may act; the version after it (0: over)."""
    from service import schemas

    for token in rng.sample(tokens, len(tokens)):
        actions = (await service.legal_actions(match_id, token)).actions
        if actions:
            await service.command(match_id, token, schemas.SendCommand(
                command=rng.choice(actions).command))
            return int((await service.summary(match_id)).version)
    return 0


def work(args: argparse.Namespace) -> dict[str, Any]:
    """Every measurement, with its ratios."""
    dw = command_path("deathwick", 20, args.matches)
    we = command_path("wick-and-ember", 6, args.matches * 4)
    big, small = [], []
    for r in range(args.rounds):  # interleaved: load on the machine falls on both alike
        big.append(asyncio.run(fanout(20, args.appends, args.spectators, r)))
        small.append(asyncio.run(fanout(2, args.appends, args.spectators, r)))
    ratios = [b / s for b, s in zip(big, small, strict=True)]
    return {
        "deathwick_20": dw, "wick_and_ember_6": we,
        "command_ratio": round(dw["us_per_command"] / we["us_per_command"], 1),
        "replay_event_ratio": round(dw["us_per_replayed_event"] / we["us_per_replayed_event"], 1),
        "fanout_cpu_ms_20_seats": [round(x, 2) for x in big],
        "fanout_cpu_ms_2_seats": [round(x, 2) for x in small],
        "fanout_ratio_20_over_2": round(statistics.median(ratios), 1),
        "spectators": args.spectators, "load_average": common.load_average(),
    }


def main() -> None:
    """Run, print and save."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--appends", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(common.run_and_save("deathwick", lambda: work(args)))


if __name__ == "__main__":
    main()
