"""The soak: M live matches played by paced bots with F stream followers against `hearthlog serve`.

Bounded, stops by itself. One real `hearthlog serve --workers W` on an embedded Postgres (its
own, in a temporary folder, unless --database-url is given). Steps first, each measured when
the server has settled: the server's memory with 0, M/2 and M live matches (no followers), then
with 0, F/2 and F followers (two per match, spectators). Then the soak itself for --minutes:
each match's bot sends one legal command every --pace seconds, a finished match is replaced at
once (its followers move to the new one). Client-side bots, not the server's own: every command
goes through the HTTP command path a player uses, its answer is seen, so each acknowledgement
can be checked afterwards, and the pace is the client's, so the matches stay live for the whole
run, the server's memory sampled every 10 s and its slope reported (MiB/s over the whole soak,
its first half and its second half: a growth that levels off has a second half near 0).
Afterwards: every 2xx command answer must be an event of that command at its version, and
every follower must have been sent every version of each match it followed once, in order, up
to the version the store holds. Run (figures in docs/benchmarks.md):

    PYTHONPATH=. python -m bench.soak [--minutes 5] [--matches 1000] [--followers 2000]
        [--pace 5] [--long | --short]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import time
from pathlib import Path
from typing import Any

import msgspec

from bench import common
from bench.soak_audit import audit, sessions
from bench.soak_clients import GAME, LONG, SHORT, Bot, Follower, Ledger
from bench.soak_server import Soaked, start_server

SETTLE = 10.0  # seconds between a step's change and its memory reading


def raise_file_limit() -> int:
    """This client holds a socket per bot and per follower: soft file limit up to the hard."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


async def in_batches(work: list[Any], size: int = 50) -> None:
    """Await coroutines ``size`` at a time (a burst of thousands would fill the backlog)."""
    for start in range(0, len(work), size):
        await asyncio.gather(*work[start:start + size])


async def settled(server: Soaked, seconds: float) -> dict[str, Any]:
    """The server's memory and connections after ``seconds`` of settling."""
    await asyncio.sleep(seconds)
    return {**server.memory(), **await sessions(server.database_url), "at": time.monotonic()}


async def ramp(server: Soaked, bots: list[Bot], followers: list[Follower], pace: float,
               until: float) -> tuple[dict[str, Any], list[asyncio.Task[None]]]:
    """Open the matches in two halves and then the followers in two halves, measuring each step;
    every bot plays from when its match opens until ``until``."""
    steps: dict[str, Any] = {"matches_0": await settled(server, 2)}
    playing: list[asyncio.Task[None]] = []
    half = len(bots) // 2
    for name, group in (("matches_half", bots[:half]), ("matches_all", bots[half:])):
        await in_batches([bot.open() for bot in group])
        playing += [asyncio.create_task(bot.play(until)) for bot in group]
        steps[name] = await settled(server, SETTLE)
    half = len(followers) // 2
    for name, group in (("followers_half", followers[:half]), ("followers_all", followers[half:])):
        for n, follower in enumerate(group):
            bot = bots[n % len(bots)]
            bot.followers.append(follower)
            follower.move(bot.match_id)
            if n % 50 == 49:
                await asyncio.sleep(0.05)
        steps[name] = await settled(server, SETTLE)
    return steps, playing


def per_unit(steps: dict[str, Any], matches: int, followers: int) -> dict[str, float]:
    """Memory per live match and per follower (KiB), from the steps' server PSS."""
    def kib(a: str, b: str, units: int) -> float:
        """The growth from step a to step b, per unit."""
        return round((steps[b]["server_pss"] - steps[a]["server_pss"]) / 1024 / max(units, 1), 1)

    return {"per_match_kib": kib("matches_0", "matches_all", matches),
            "per_match_kib_first_half": kib("matches_0", "matches_half", matches // 2),
            "per_follower_kib": kib("matches_all", "followers_all", followers),
            "per_follower_kib_first_half": kib("matches_all", "followers_half", followers // 2)}


async def watch(server: Soaked, bots: list[Bot], ledger: Ledger,
                until: float) -> list[dict[str, Any]]:
    """Every 10 s until ``until``: matches in play, slots opening their next match (a slot in
    neither has stopped), matches finished so far (each replaced by a new one), memory and
    connections held."""
    samples = []
    while time.monotonic() < until:
        sample = await settled(server, min(10.0, max(0.0, until - time.monotonic())))
        samples.append({**sample, "live": sum(bot.live for bot in bots),
                        "held": sum(bot.live or bot.opening for bot in bots),
                        "finished": ledger.finished})
    return samples


def per_replaced_match(samples: list[dict[str, Any]]) -> float | None:
    """The server's growth over the second half of the samples per match finished and replaced
    meanwhile (KiB, least squares): a new match takes an entry in each bounded cache (the state
    cache's, 2,048 matches a worker) until they fill; beyond that, what a finished match leaves
    behind (each finished match's feed did, until issue 33's ninth stop: docs/benchmarks.md).
    None when too few matches finished to tell."""
    second = samples[len(samples) // 2:]
    if len(second) < 2 or second[-1]["finished"] - second[0]["finished"] < 10:
        return None
    return round(common.slope([(s["finished"], s["server_pss"]) for s in second]) * 1024, 1)


async def soak(server: Soaked, args: argparse.Namespace) -> dict[str, Any]:
    """Ramp, soak, stop, audit."""
    ledger = Ledger()
    game = LONG if args.long else SHORT if args.short else GAME
    bots = [Bot(server.port, n, ledger, args.pace, game) for n in range(args.matches)]
    followers = [Follower(server.port) for _ in range(args.followers)]
    budget = 4 * SETTLE + 2 + 60 + args.minutes * 60  # the ramp's settling, opening, the soak
    steps, playing = await ramp(server, bots, followers, args.pace, time.monotonic() + budget)
    started = time.monotonic()
    samples = await watch(server, bots, ledger, started + args.minutes * 60)
    ended = time.monotonic()
    for task in playing:
        task.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    found = await audit(server.database_url, ledger, followers)
    for follower in followers:
        await follower.close()
    sent = [(at, took) for at, took in ledger.latencies if started <= at < ended]
    window = common.summarise("soak-commands", args.matches, [t for _, t in sent], ended - started)
    return {"benchmark": "soak", "minutes": args.minutes, "matches": args.matches,
            "long": args.long, "short": args.short, "followers": args.followers,
            "pace_seconds": args.pace,
            "workers": server.workers,
            "commands": window, "statuses": ledger.statuses, "finished": ledger.finished,
            "failures": ledger.failures[:20], "failure_count": len(ledger.failures),
            "setup_retries": ledger.setup_retries,
            "steps": steps, "memory": per_unit(steps, args.matches, args.followers),
            "samples": samples, "memory_slope": common.memory_slope(
                [(s["at"] - started, s["server_pss"]) for s in samples]),
            "second_half_kib_per_replaced_match": per_replaced_match(samples),
            "live_min": min((s["live"] for s in samples), default=0),
            "held_min": min((s["held"] for s in samples), default=0),
            "audit": found}


def main() -> None:
    """Run the soak and save (or write to --out) its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--followers", type=int, default=2000)
    parser.add_argument("--pace", type=float, default=5.0, help="seconds between a match's moves")
    parser.add_argument("--workers", type=int, default=None, help="default: as `serve` chooses")
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--long", action="store_true",
                        help="long matches (few end in a short soak: no new match's cache entry)")
    length.add_argument("--short", action="store_true",
                        help="matches to an ember target of 1, ending within seconds: many are "
                             "replaced, each with a new feed and its followers' new streams")
    parser.add_argument("--database-url", help="a migrated database (default: an embedded one)")
    parser.add_argument("--out", help="write the figures here (default: bench/results/soak.json)")
    args = parser.parse_args()
    raise_file_limit()

    def work() -> dict[str, Any]:
        """The whole soak, against a server on its own or the given database."""
        with contextlib.ExitStack() as stack:
            url = args.database_url or stack.enter_context(common.postgres())
            server = stack.enter_context(start_server(url, args.workers, not args.database_url))
            return asyncio.run(soak(server, args))

    if args.out:
        document = {**work(), "machine": common.machine(), "load_average_at_end":
                    common.load_average()}
        Path(args.out).write_text(json.dumps(msgspec.to_builtins(document), indent=2))
        print(args.out)
    else:
        print(common.run_and_save("soak", work))


if __name__ == "__main__":
    main()
