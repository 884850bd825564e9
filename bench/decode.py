"""Benchmark: what decoding a command's body costs, this tree against an earlier commit (issue 33).

A command POST's body is read by litestar's data extractor, decoded strictly as documented
(``strictly``), then made one of the match's game's commands (``decode_command``: the typed
decode and the walk that refuses a field the command does not take). In each tree (this one,
and ``--before`` in a temporary worktree), a fresh process measures, as CPU per command:

- ``decode_us``: ``decode_command`` alone, over the legal commands met while playing practice
  matches of every built-in game (fixed seeds, a seeded random choice among the legal actions);
- ``post_us``: a whole command POST through the app (the front, the route, the use case on an
  in-memory store), seats of wick-and-ember and deathwick matches playing random legal moves;
  only the request is timed (the legal actions it picks from are asked of the service apart);
- ``refused_us``: a POST whose command has a field too many (400 naming it, nothing written);
- ``route_us``: a POST whose use case answers at once (the front, the route, the body's
  decode), the least of five runs: the part the route's own decode changes, less noisy.

Trees alternate within a round, the order swapped each round; ratios are after / before. Run:

    PYTHONPATH=. python -m bench.decode --before COMMIT [--after COMMIT] [--rounds 5]

``--after`` measures a commit instead of the working tree (which may hold others' unfinished
changes to the same path).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bench import common

ROOT = common.ROOT
MEASURE = r'''
import asyncio, json, os, random, sys, time
os.environ["HEARTHLOG_REQUESTS_PER_MINUTE"] = str(10**9)
os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # the access lines: written, to nowhere
from types import SimpleNamespace
import msgspec
from domain.games import BUILT_IN, GAMES
from service import schemas
from service.http.app import create_app
from service.matches import MatchService, decode_command
from service.store.memory import MemoryStore

service = MatchService(MemoryStore(), seeds=lambda: bytes(32))
app = create_app()
app.state.services = SimpleNamespace(matches=service, apps=SimpleNamespace(identify=None))
SEATS = {"deathwick": 3, "ember": 2, "whiteout-road": 3, "wick-and-ember": 2}

async def table(game):
    created = await service.create(schemas.CreateMatch(game=game, seats=SEATS[game]))
    tokens = [(await service.join(created.match_id, schemas.JoinSeat(name=f"Seat {n}"))).token
              for n in range(SEATS[game])]
    await service.start(created.match_id, created.host_token)
    return created.match_id, tokens

async def moves(game, rng):
    """(match, token, command) of a seat that may act, until the match ends."""
    match_id, tokens = await table(game)
    while True:
        for token in rng.sample(tokens, len(tokens)):
            actions = (await service.legal_actions(match_id, token)).actions
            if actions:
                yield match_id, token, rng.choice(actions).command
                break
        else:
            return

async def post(match_id, token, body):
    sent = []
    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}
    async def send(message):
        sent.append(message)
    path = f"/matches/{match_id}/commands"
    scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "scheme": "http", "http_version": "1.1",
             "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8000),
             "headers": [(b"authorization", b"Bearer " + token.encode()), (b"host", b"x"),
                         (b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())]}
    cpu = time.process_time()
    await app(scope, receive, send)
    return time.process_time() - cpu, sent[0]["status"]

async def corpus(count):
    rng, found = random.Random(7), []
    while len(found) < count:
        for game in BUILT_IN:
            async for match_id, token, command in moves(game, rng):
                found.append((GAMES[game], command))
                await service.command(match_id, token, schemas.SendCommand(command=command))
    return found[:count]

def decoding(found):
    for game, command in found[:200]:
        decode_command(game, command)  # warm up
    cpu = time.process_time()
    for game, command in found:
        decode_command(game, command)
    return (time.process_time() - cpu) / len(found) * 1e6

async def posting(count, extra=False):
    rng, total, done = random.Random(11), 0.0, 0
    while done < count:
        for game in ("wick-and-ember", "deathwick"):
            async for match_id, token, command in moves(game, rng):
                sent = {**command, "x": 1} if extra else command
                cpu, status = await post(match_id, token, msgspec.json.encode({"command": sent}))
                assert status == (400 if extra else 200), status
                if extra:
                    await service.command(match_id, token, schemas.SendCommand(command=command))
                total, done = total + cpu, done + 1
                if done >= count:
                    return total / done * 1e6
    return total / done * 1e6

class Answering:
    """A use case that answers at once: what is left is the front, the route and the body."""

    async def command(self, match_id, token, body):
        return 200, b"{}"

async def routing(count, chunks=5):
    """The least CPU per POST over ``chunks`` runs of ``count`` (the least disturbed one)."""
    app.state.services = SimpleNamespace(matches=Answering(),
                                         apps=SimpleNamespace(identify=None))
    body = msgspec.json.encode({"command": {"type": "play", "card": "lamp_warden", "target": 1,
                                            "guess": "gale"}, "command_id": "c-1"})
    match_id = "4f9c1c52-8f0e-4a8e-9d55-0b7e1d1f2a10"
    best = float("inf")
    for _ in range(chunks):
        total = 0.0
        for _ in range(count):
            total += (await post(match_id, "seat-token", body))[0]
        best = min(best, total / count * 1e6)
    app.state.services = SimpleNamespace(matches=service, apps=SimpleNamespace(identify=None))
    return best

count = int(sys.argv[1])
route_us = asyncio.run(routing(count))
asyncio.run(posting(count // 10))  # warm up
post_us = asyncio.run(posting(count))
refused_us = asyncio.run(posting(count // 2, extra=True))
decode_us = decoding(asyncio.run(corpus(count)))
print(json.dumps({"decode_us": decode_us, "post_us": post_us, "refused_us": refused_us,
                  "route_us": route_us}))
'''


def measure(tree: Path, commands: int) -> dict[str, float]:
    """One fresh process of ``tree``'s code: its per-command figures."""
    figures: dict[str, float] = json.loads(common.output_of(tree, ["-c", MEASURE, str(commands)]))
    return {name: round(value, 2) for name, value in figures.items()}


def work(args: argparse.Namespace) -> dict[str, Any]:
    """Alternating rounds of this tree and the earlier commit; medians and per-round ratios."""
    load = [common.load_average()]
    with common.tree_at(args.before) as old, common.tree_at(args.after) as new:
        runs = common.alternate({"before": old, "after": new}, args.rounds,
                                lambda tree, _: measure(tree, args.commands))
    load.append(common.load_average())
    return {"benchmark": "decode", "before": args.before, "after": args.after or "working tree",
            "commands": args.commands, **common.compared(runs), "load_average": load}


def main() -> None:
    """Run the benchmark and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, metavar="COMMIT")
    parser.add_argument("--after", metavar="COMMIT")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--commands", type=int, default=3000)
    args = parser.parse_args()
    print(common.run_and_save("decode", lambda: work(args)))


if __name__ == "__main__":
    main()
