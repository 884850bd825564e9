"""Benchmark: the process's CPU per command when every seat follows its match in the process.

A real client plays one request a move and follows its seat's stream, so after each command the
process shapes the mover's view and legal actions for the command's answer and, for the mover's
stream, in the match's feed. This runs that path in process, with no socket and no database
(the memory store), so what it times is the process's own work: ``MATCHES`` two-seat Wick &
Ember matches (long; or ``--game deathwick --seats N``), each seat following through
``service.live.hub.open_follow`` and the SSE encoder ``service.http.api.stream.messages``; then,
match after match, a random legal command with a ``command_id`` (chosen from the mover's last
answer or stream update, as a client does) through ``MatchService.command``, until every stream
has sent its version. Per command: the process's CPU time. The seeds are fixed, so both trees
play the same moves.

Each round runs both trees, one after the other, each in a process of its own (``--before`` and
``--after``: commits checked out in temporary git worktrees; ``--after`` defaults to this working
tree). Run:

    PYTHONPATH=. python -m bench.shaping --before 63d6a16 [--after COMMIT] [--rounds 5]
        [--commands 3000] [--game deathwick --seats 6] [--save NAME]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import itertools
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

import msgspec

MATCHES = 64  # a long match ends after about 70 commands: room for COMMANDS
COMMANDS = 3000
QUIET = 3600.0  # heartbeat: far longer than a run
LIMIT_SECONDS = 600
ROOT = Path(__file__).resolve().parent.parent


class Seat:
    """One seat's token and stream: the last version its stream sent and that update's JSON."""

    def __init__(self, token: str) -> None:
        self.token, self.version, self.data = token, 0, b""
        self.arrived = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self._offered: tuple[int, list[Any]] = (0, [])

    def offered(self) -> list[Any]:
        """The commands the seat's last stream update offers it (read once per update)."""
        if self._offered[0] != self.version:
            update = msgspec.json.decode(self.data.strip()) if self.data else {}
            self._offered = (self.version, [a["command"] for a in update.get("actions") or []])
        return self._offered[1]

    async def consume(self, messages: Any) -> None:
        """Keep each update's version and JSON, as a client reads its stream."""
        async for message in messages:
            if message.id is not None:
                frame = message.encode() if hasattr(message, "encode") else b""
                self.version, self.data = int(message.id), frame.split(b"data: ", 1)[-1]
                self.arrived.set()

    async def reach(self, version: int) -> None:
        """Wait until the stream has sent ``version``."""
        while self.version < version:
            self.arrived.clear()
            await self.arrived.wait()


GAMES = {"wick-and-ember": {"match_length": "long"}, "deathwick": {}}


async def seated(service: Any, schemas: Any, hub: Any, game: str,
                 seats_count: int) -> tuple[str, list[Seat]]:
    """A started match whose seats follow their streams."""
    from service.http.api.stream import messages
    from service.live.hub import open_follow

    body = schemas.CreateMatch(game=game, seats=seats_count, options=GAMES[game])
    created = await service.create(body)
    seats = []
    for n in range(seats_count):
        joined = await service.join(created.match_id, schemas.JoinSeat(name=f"Seat {n}"))
        seats.append(Seat(joined.token))
    await service.start(created.match_id, created.host_token)
    for seat in seats:
        updates = await open_follow(service, hub, created.match_id, seat.token, 0, QUIET)
        seat.task = asyncio.create_task(seat.consume(messages(updates)))
    return created.match_id, seats


async def measure(commands: int, seed: int, game: str = "wick-and-ember",
                  seats: int = 2) -> dict[str, Any]:
    """CPU µs per command, every seat of every match following."""
    import service.live.hub as live
    from service import schemas
    from service.matches import MatchService
    from service.store.memory import MemoryStore

    counter = itertools.count()
    seeds = lambda: hashlib.sha256(b"shaping %d" % next(counter)).digest()  # noqa: E731
    service, hub = MatchService(MemoryStore(), seeds=seeds), live.Hub()
    tables = [await seated(service, schemas, hub, game, seats) for _ in range(MATCHES)]
    await asyncio.gather(*(seat.reach(1) for _, seats in tables for seat in seats))
    rng, sent, played, idle = random.Random(seed), 0, 0, 0
    cpu = time.process_time()
    while played < commands and idle < len(tables):
        match_id, seats = tables[sent % len(tables)]
        sent += 1
        version = max(seat.version for seat in seats)
        await asyncio.gather(*(seat.reach(version) for seat in seats))
        movers = [seat for seat in seats if seat.offered()]
        idle = 0 if movers else idle + 1
        if not movers:
            continue  # over
        mover = rng.choice(movers)
        body = schemas.SendCommand(command=rng.choice(mover.offered()), command_id=f"c{sent}")
        status, answer = await service.command(match_id, mover.token, body)
        if status != 200:
            raise RuntimeError(f"a command was refused: {answer!r}")
        version = msgspec.json.decode(answer)["version"]
        await asyncio.gather(*(seat.reach(version) for seat in seats))
        played += 1
    spent = time.process_time() - cpu
    return {"code": live.__file__, "commands": played, "cpu_us": round(spent / played * 1e6, 1)}


def run_in(tree: Path, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """One measuring process on the code of ``tree``."""
    from bench import common  # not in the measuring process, which runs another tree's code

    return common.measured_by(tree, str(Path(__file__).resolve()), [
        "--commands", str(args.commands), "--seed", str(seed), "--game", args.game,
        "--seats", str(args.seats)], LIMIT_SECONDS)


def work(args: argparse.Namespace) -> dict[str, Any]:
    """Alternating rounds of before and after; per-round ratios and their median."""
    from bench import common  # not in the measuring process, which runs another tree's code

    with common.tree_at(args.before) as old, common.tree_at(args.after) as new:
        runs = common.alternate({"before": old, "after": new}, args.rounds,
                                lambda tree, round_: run_in(tree, args, seed=round_))
    ratios = [a["cpu_us"] / b["cpu_us"] for a, b in zip(runs["after"], runs["before"], strict=True)]
    return {"matches": MATCHES, "game": args.game, "seats": args.seats,
            "before_commit": args.before, "after_commit": args.after,
            "runs": runs, "after_over_before": [round(r, 3) for r in ratios],
            "median_after_over_before": round(statistics.median(ratios), 3)}


def main() -> None:
    """Measure this interpreter's tree (--measure), or run the rounds and save
    bench/results/<SAVE>.json (shaping-vs-<before> unless told)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", action="store_true", help="measure the code on PYTHONPATH")
    parser.add_argument("--before", default="63d6a16")
    parser.add_argument("--after", help="a commit (default: this working tree)")
    parser.add_argument("--commands", type=int, default=COMMANDS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", choices=sorted(GAMES), default="wick-and-ember")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--save", help="bench/results/<SAVE>.json")
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(asyncio.run(measure(args.commands, args.seed, args.game, args.seats))))
        return
    from bench import common

    path = common.run_and_save(args.save or f"shaping-vs-{args.before}", lambda: work(args))
    print(json.loads(path.read_text())["median_after_over_before"])


if __name__ == "__main__":
    main()
