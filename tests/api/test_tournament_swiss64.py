"""A 64-entrant Swiss played to its end on a real server, with the figures docs/tournaments.md
quotes: each round's time (started to its last table finished) and the p95 of the reads an
audience makes meanwhile (the tournament, its round, its standings, its crosstable).

Slow (a minute or more): run with `-m slow`. The figures are printed; the test holds only what
must be true (every round paired by the Dutch system, the bundle verifies).
"""

from __future__ import annotations

import asyncio
import statistics
import time

import pytest

from projections.tournament import verify_bundle
from tests.api.tournament_support import Organizer

ENTRANTS, ROUNDS = 64, 6


async def reader(organizer: Organizer, number: int, stop: asyncio.Event,
                 seconds: list[float]) -> None:
    """Read what an audience reads, one request after another, until ``stop``."""
    routes = ["", f"/rounds/{number}", "/standings", "/crosstable"]
    i = 0
    while not stop.is_set():
        began = time.perf_counter()
        answer = await organizer.get(routes[i % len(routes)])
        seconds.append(time.perf_counter() - began)
        assert answer.status_code == 200, answer.text
        i += 1


@pytest.mark.slow
async def test_a_64_entrant_swiss_runs_to_its_end_and_verifies(fast_server):
    """Given 64 bot entrants in a 2-seat Swiss of 6 rounds, when each round is started and
    followed by 4 readers, then all 6 rounds finish and the bundle verifies; the figures are
    printed for docs/tournaments.md."""
    organizer = Organizer(fast_server)
    await organizer.create(name="Sixty-Four", options={"match_length": "short"}, rounds=ROUNDS)
    for n in range(ENTRANTS):
        await organizer.register(f"Bot {n}", bot="random")
    await organizer.close_registration()
    figures, every = [], []
    for number in range(1, ROUNDS + 1):
        stop, seconds = asyncio.Event(), []
        began = time.perf_counter()
        paired = await organizer.start_round()
        pairing = time.perf_counter() - began
        readers = [asyncio.create_task(reader(organizer, number, stop, seconds))
                   for _ in range(4)]
        await organizer.round_finished(number, seconds=600)
        took = time.perf_counter() - began
        stop.set()
        await asyncio.gather(*readers)
        every += seconds
        figures.append((number, len(paired["tables"]), pairing, took, len(seconds)))
    tournament = await organizer.until("finished")
    bundle = (await organizer.get("/export")).content.splitlines(keepends=True)
    report = verify_bundle(bundle)
    await organizer.close()
    for number, tables, pairing, took, reads in figures:
        print(f"round {number}: {tables} tables, started in {pairing:.2f} s, finished in "
              f"{took:.1f} s; {reads} reads")
    cuts = statistics.quantiles(every, n=20)
    print(f"reads: {len(every)}, median {statistics.median(every) * 1000:.0f} ms, "
          f"p95 {cuts[-1] * 1000:.0f} ms, max {max(every) * 1000:.0f} ms")
    assert tournament["round"] == ROUNDS and report.ok, report.problem
    assert all(tables == ENTRANTS // 2 for _, tables, *_ in figures)
