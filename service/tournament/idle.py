"""No-shows on a turn clock: a seat the server has played for ``timeouts_to_forfeit`` times in
a row (settings) is forfeited by the server, recorded like an organizer's forfeit, so an absent
player neither plays the whole event through the clock nor scores (docs/tournaments.md, 8).

Read by the tournament sweep for running tournaments that set it: each table in play is read
from its events, counting each seat's time-outs since its own last command.
"""

from __future__ import annotations

import msgspec

from service.store.records import StoredEvent
from service.tournament.tournaments import TournamentService
from service.tournament.views import Held


def idle_runs(events: list[StoredEvent]) -> dict[int, int]:
    """Each seat's time-outs in a row, up to now (a command of its own starts it again)."""
    runs: dict[int, int] = {}
    for event in events:
        seat = event.metadata.get("seat")
        if seat is not None and event.metadata.get("command") is not None:
            runs[seat] = 0
        if event.type == "seat_timed_out":
            timed_out = msgspec.json.decode(event.data)["seat"]
            runs[timed_out] = runs.get(timed_out, 0) + 1
    return runs


async def forfeit_idle(service: TournamentService, held: Held) -> int:
    """Forfeit, at every table of the current round in play, the seats idle past the setting;
    how many were forfeited."""
    limit = held.settings.timeouts_to_forfeit
    if limit is None or held.row.status != "running" or not held.rounds:
        return 0
    number, done = held.row.round, 0
    for table in held.pairing(number).tables:
        mid = held.rounds[number - 1].matches[table.number]
        if held.status_of(mid) != "playing":
            continue
        runs = idle_runs(await service.matches.store.load(mid))
        for seat, run in sorted(runs.items()):
            if run >= limit:
                await service.forfeit_for(held, number, table.number, table.seats[seat],
                                          "server", f"timed out {run} times in a row")
                held, done = await service.held(held.row.tournament_id), done + 1
                break  # the table is over for a 2-seat match; look again next sweep
    return done
