"""Benchmark: what a player costs where a seat token cost nothing more.

On an embedded Postgres holding ``--matches`` two-seat matches of ``--players`` players (made
through MatchService with counted seeds, so every run holds the same rows), three look-ups in
interleaved rounds, each timed per call in wall time:
- a seat token's seat (``PostgresStore.seat_for_token``, the statement every seat command pays
  when its token is not yet remembered);
- a player token's seat in a match (``PlayerStore.seat_for_token``: the events_by_player index
  and the players row, one statement), asked only after the seat and host checks miss;
- a page of 50 of a player's matches (``PlayerStore.seats``: every shard's events by the player,
  joined with the match rows, newest first).
Run:

    PYTHONPATH=. python -m bench.players [--matches 2000] [--players 100] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bench.common import migrated_database, postgres, run_and_save
from domain.core.match import JoinSeat
from service import auth, schemas
from service.matches import MatchService
from service.store import PostgresStore
from service.store.players import NewPlayer, PlayerStore
from service.store.provisioning import create_pool
from tests.core.sources import counted_seeds

CALLS = 200  # look-ups of each kind per round


async def filled(pool: Any, matches: int, players: int) -> list[tuple[str, str, str, bytes]]:
    """The matches, each seated by two distinct players: (match, player, player token, seat
    token hash) for every seat."""
    store, people = PlayerStore(pool), []
    for n in range(players):
        token = f"bench-player-token-{n}"
        row = await store.create(NewPlayer(
            player_id=f"00000000-0000-4000-8000-{n:012d}", name=f"Player {n}",
            name_key=f"player {n}", token_hash=auth.token_hash(token)))
        people.append((row.player_id, row.name, token))
    service = MatchService(PostgresStore(pool), seeds=counted_seeds("bench players"))
    chooser, seats = random.Random(7), []
    for _ in range(matches):
        made = await service.create(schemas.CreateMatch(game="wick-and-ember", seats=2))
        for version, (player_id, name, token) in enumerate(chooser.sample(people, 2), start=1):
            seat_token = auth.token_hash(f"{made.match_id} {player_id}")
            await service.take_seat(made.match_id, JoinSeat(name=name, player=player_id),
                                    seat_token, expected=version)
            seats.append((made.match_id, player_id, token, seat_token))
    return seats


async def timed(calls: list[Callable[[], Awaitable[Any]]]) -> float:
    """Median wall seconds of one call."""
    spent = []
    for call in calls:
        started = time.perf_counter()
        await call()
        spent.append(time.perf_counter() - started)
    return statistics.median(spent)


async def measure(url: str, matches: int, players: int, rounds: int) -> dict[str, Any]:
    """Interleaved rounds of the three look-ups; the median of each round, in microseconds."""
    pool = await create_pool(url, max_size=2)
    try:
        seats = await filled(pool, matches, players)
        events, people = PostgresStore(pool), PlayerStore(pool)
        kinds: dict[str, list[float]] = {"seat_token": [], "player_token": [], "matches_page": []}
        for round_ in range(rounds):
            picked = random.Random(round_).sample(seats, CALLS)
            kinds["seat_token"].append(await timed(
                [lambda s=s: events.seat_for_token(s[0], s[3]) for s in picked]))
            kinds["player_token"].append(await timed(
                [lambda s=s: people.seat_for_token(s[0], auth.token_hash(s[2])) for s in picked]))
            kinds["matches_page"].append(await timed(
                [lambda s=s: people.seats(s[1], 50, 0) for s in picked]))
    finally:
        await pool.close()
    figures = {f"{kind}_us": round(statistics.median(v) * 1e6, 1) for kind, v in kinds.items()}
    rounds_us = {kind: [round(x * 1e6, 1) for x in v] for kind, v in kinds.items()}
    return {**figures, "player_over_seat": round(
        figures["player_token_us"] / figures["seat_token_us"], 2), "rounds_us": rounds_us}


def main() -> None:
    """Run on an embedded Postgres and save bench/results/players.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        with postgres() as admin:
            url = asyncio.run(migrated_database(admin, "bench_players"))
            figures = asyncio.run(measure(url, args.matches, args.players, args.rounds))
        return {"matches": args.matches, "players": args.players, "rounds": args.rounds,
                "calls_per_round": CALLS, **figures}

    print(run_and_save("players", work).read_text())


if __name__ == "__main__":
    main()
