"""Benchmark 5: live fan-out, store reads and CPU per append for one match with 6 seats and 100
spectator streams following it in one server process.

Before: the code at BEFORE (each follower folds the match itself and reads the store on every
notification), checked out by ``git worktree`` in a temporary folder; after: this tree (one
feed per followed match, service.live.feed). Each round runs both, one after the other, each in a
process of its own on a fresh database of one embedded Postgres (127.0.0.1 only), running the
same measuring code below against that tree's service: a 6-seat Wick & Ember match (long) of
people, each seat and every spectator following it through ``service.live.hub.open_follow`` and the
SSE encoder ``service.http.api.stream.messages`` (what GET /matches/{id}/stream runs, without the
socket). Then, per append: one random legal command through MatchService (not counted), the
notification handed to the hub as the listener does, and the time until every stream has sent
that version: the store reads made (event loads and match rows), the process's CPU time and
the wall time. Bounded (each process has LIMIT_SECONDS). Run:

    PYTHONPATH=. python -m bench.fanout [--appends 40] [--spectators 100] [--rounds 3]
        [--before COMMIT] [--save NAME]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

BEFORE = "b0982e7"  # the commit before the fan-out from one fold
SEATS = 6
QUIET = 3600.0  # heartbeat: far longer than a run, so every read measured is an append's
LIMIT_SECONDS = 300
ROOT = Path(__file__).resolve().parent.parent


def counting_store(pool: Any) -> Any:
    """This tree's PostgresStore, counting its reads (event loads, match rows) while on."""
    from service.store import PostgresStore

    class Counting(PostgresStore):  # type: ignore[misc, valid-type]
        """Counts ``load`` and ``get_match`` calls while ``counting`` is set."""

        reads, counting = 0, False

        async def load(self, *args: Any, **kwargs: Any) -> Any:
            """Count, then read."""
            self.reads += self.counting
            return await super().load(*args, **kwargs)

        async def get_match(self, *args: Any, **kwargs: Any) -> Any:
            """Count, then read."""
            self.reads += self.counting
            return await super().get_match(*args, **kwargs)

    return Counting(pool)


def schemas() -> Any:
    """The answer types, wherever this tree keeps them."""
    try:
        from service import schemas as moved  # type: ignore[attr-defined]

        return moved
    except ImportError:
        from service.http.api import schemas as old

        return old


async def seated(service: Any, seats: int) -> tuple[str, list[str]]:
    """A started long Wick & Ember match of people; its id and the seats' tokens."""
    types = schemas()
    body = types.CreateMatch(game="wick-and-ember", seats=seats,
                             options={"match_length": "long"})
    created = await service.create(body)
    tokens = []
    for n in range(seats):
        joined = await service.join(created.match_id, types.JoinSeat(name=f"Seat {n}"))
        tokens.append(joined.token)
    await service.start(created.match_id, created.host_token)
    return created.match_id, tokens


async def play_one(service: Any, match_id: str, tokens: list[str], rng: random.Random) -> int:
    """One random legal command by a seat that may act; the match's version after it (0: over)."""
    for token in tokens:
        actions = (await service.legal_actions(match_id, token)).actions
        if actions:
            chosen = rng.choice(actions)  # a labelled action here, a bare command before
            body = schemas().SendCommand(command=getattr(chosen, "command", chosen))
            await service.command(match_id, token, body)
            return int((await service.summary(match_id)).version)
    return 0


class Streams:
    """Every follower's SSE messages, consumed as a client would; the last id each sent."""

    def __init__(self, count: int) -> None:
        self.latest = [0] * count
        self.arrived = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []

    def start(self, index: int, messages: Any) -> None:
        """Consume one follower's messages in a task."""
        self.tasks.append(asyncio.create_task(self._consume(index, messages)))

    async def _consume(self, index: int, messages: Any) -> None:
        """Keep the id of each update message."""
        async for message in messages:
            if message.id is not None:
                self.latest[index] = int(message.id)
                self.arrived.set()

    async def reach(self, version: int) -> None:
        """Wait until every stream has sent ``version``."""
        while min(self.latest) < version:
            self.arrived.clear()
            await self.arrived.wait()

    async def stop(self) -> None:
        """Cancel every consumer."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def measure(url: str, appends: int, spectators: int, seed: int) -> dict[str, Any]:
    """Per append: store reads, CPU ms and wall ms until every stream sent it."""
    import service.live.hub as live
    from service.http.api.stream import messages
    from service.matches import MatchService
    from service.store.provisioning import create_pool

    pool = await create_pool(url)
    store = counting_store(pool)
    service, hub = MatchService(store), live.Hub()
    # Commands through another service on the store, as another process's would: the playing
    # service hands its own appends to its feeds (docs/live.md), with no read to count.
    writer = MatchService(store)
    match_id, tokens = await seated(service, SEATS)
    viewers = [*tokens, *[None] * spectators]
    streams = Streams(len(viewers))
    store.counting = True
    for index, token in enumerate(viewers):
        streams.start(index, messages(await live.open_follow(service, hub, match_id, token, 0,
                                                              QUIET)))
    version = int((await service.summary(match_id)).version)
    await streams.reach(version)
    await asyncio.sleep(0.5)  # let whatever the joins started settle
    joined_reads, store.counting = store.reads, False
    rng, rows = random.Random(seed), []
    for _ in range(appends):
        version = await play_one(writer, match_id, tokens, rng)
        if not version:
            break
        store.reads, store.counting = 0, True
        cpu, wall = time.process_time(), time.perf_counter()
        hub.publish(match_id, version)
        await streams.reach(version)
        rows.append({"reads": store.reads, "cpu_ms": (time.process_time() - cpu) * 1000,
                     "wall_ms": (time.perf_counter() - wall) * 1000})
        store.counting = False
    await streams.stop()
    await pool.close()
    return {"code": live.__file__, "followers": len(viewers), "joined_reads": joined_reads,
            "appends": rows}


def summary(run: dict[str, Any]) -> dict[str, float]:
    """Medians per append of one run."""
    rows = run["appends"]
    return {"reads": statistics.median(r["reads"] for r in rows),
            "cpu_ms": round(statistics.median(r["cpu_ms"] for r in rows), 2),
            "wall_ms": round(statistics.median(r["wall_ms"] for r in rows), 2),
            "appends": len(rows), "joined_reads": run["joined_reads"]}


def run_in(tree: Path, url: str, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """One measuring process on the code of ``tree``."""
    from bench.common import measured_by

    return measured_by(tree, str(Path(__file__).resolve()), [
        url, "--appends", str(args.appends), "--spectators", str(args.spectators),
        "--seed", str(seed)], LIMIT_SECONDS)


@contextlib.contextmanager
def before_tree(commit: str = BEFORE) -> Any:
    """The code at ``commit`` in a temporary git worktree, removed after."""
    from bench.common import tree_at

    with tree_at(commit) as tree:
        yield tree


async def databases(admin_url: str, count: int) -> list[str]:
    """Fresh migrated databases."""
    from bench.common import migrated_database

    return [await migrated_database(admin_url, f"fanout_{n}") for n in range(count)]


def work(args: argparse.Namespace) -> dict[str, Any]:
    """Interleaved rounds of before and after; medians and per-round ratios."""
    from bench import common

    runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    with common.postgres() as admin_url, before_tree(args.before) as old:
        urls = iter(asyncio.run(databases(admin_url, 2 * args.rounds)))
        for round_ in range(args.rounds):
            for name, tree in (("before", old), ("after", ROOT)):
                runs[name].append(summary(run_in(tree, next(urls), args, seed=round_)))
                print(name, runs[name][-1], flush=True)
    ratios = {field: statistics.median(b[field] / max(a[field], 1e-9) for b, a in
                                       zip(runs["before"], runs["after"], strict=True))
              for field in ("reads", "cpu_ms", "wall_ms")}
    return {"seats": SEATS, "spectators": args.spectators, "before_commit": args.before,
            "runs": runs, "before_over_after": {k: round(v, 2) for k, v in ratios.items()}}


def table(doc: dict[str, Any]) -> list[str]:
    """The docs/benchmarks.md table of a saved run."""
    rows = ["| code | store reads per append | CPU ms per append | wall ms per append "
            "| reads to open the streams |", "|---|---:|---:|---:|---:|"]
    for name, runs in doc["runs"].items():
        med = {f: statistics.median(r[f] for r in runs)
               for f in ("reads", "cpu_ms", "wall_ms", "joined_reads")}
        rows.append(f"| {name} | {med['reads']:.0f} | {med['cpu_ms']:.1f} | "
                    f"{med['wall_ms']:.1f} | {med['joined_reads']:.0f} |")
    ratio = doc["before_over_after"]
    rows.append(f"| before ÷ after | {ratio['reads']:.0f} | {ratio['cpu_ms']:.1f} | "
                f"{ratio['wall_ms']:.1f} | |")
    return rows


def main() -> None:
    """Measure one tree (--measure URL), or run the rounds and save bench/results/fanout.json
    (fanout-vs-<commit>.json against another --before)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", help="measure this tree's code on this database URL")
    parser.add_argument("--before", default=BEFORE,
                        help=f"the commit to compare with (default {BEFORE}, before the fan-out)")
    parser.add_argument("--appends", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="bench/results/<SAVE>.json (default: fanout, or "
                        "fanout-vs-<commit> against another --before)")
    args = parser.parse_args()
    if args.measure:
        result = asyncio.run(measure(args.measure, args.appends, args.spectators, args.seed))
        print(json.dumps(result))
        return
    from bench import common

    name = args.save or ("fanout" if args.before == BEFORE else f"fanout-vs-{args.before}")
    path = common.run_and_save(name, lambda: work(args))
    print("\n".join(table(json.loads(path.read_text()))))


if __name__ == "__main__":
    main()
