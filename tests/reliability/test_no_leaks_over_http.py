"""Nobody is shown what is not theirs, checked on what the server actually sends.

Random matches are played over HTTP; after every move each seat's view and log, the spectator's
view and the public log, and the match summary are fetched and checked against the state folded
from the database's events (see leakcheck.py). Afterwards the server's access log must hold one
well-formed line per request and no token, no seed and no card.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.reliability.audit import fold, history_of, typed
from tests.reliability.leakcheck import log_problems, view_problems
from tests.reliability.logcheck import access_lines
from tests.reliability.logcheck import log_problems as output_problems
from tests.reliability.tables import Table, next_move, open_table, send

QUICK = [(2, {"ember_target": 2}), (3, {"ember_target": 1})]
FULL = [(seats, {}) for seats in (2, 3, 4, 5, 6, 2, 3, 4)]


async def served(table: Table, seat: int | None, route: str) -> dict:
    """A route of the match as one seat (None: the spectator) is served it."""
    client = table.spectator() if seat is None else table.seat_client(seat)
    answer = await client.get(f"/matches/{table.match_id}{route}")
    assert answer.status_code == 200, answer.text
    return answer.json()


async def sample(table: Table, database_url: str) -> tuple[list[str], str]:
    """Every viewer's view and log now, checked against the stored events; and the seed."""
    history = await history_of(database_url, table.match_id)
    version = len(history.events)
    state, events = fold(history, version), typed(history, version)
    found, seed = [], bytes(history.row["server_seed"]).hex()
    for seat in [None, *range(len(table.tokens))]:
        view = await served(table, seat, "/view")
        assert view["version"] == version
        found += view_problems(state, seat, view)
        found += log_problems(events, seat, await served(table, seat, "/log"))
    summary = await served(table, None, "")
    if summary["status"] != "finished":
        assert summary["server_seed"] is None and summary["client_seeds"] is None
        assert seed not in str(summary)
    return found, seed


async def play_and_check(server, database_url: str, seats: int, options: dict, index: int):
    """Play one random match to its end, checking every viewer after every move."""
    table = await open_table([server], seats, random.Random(index), options=options)
    problems, seeds = [], set()
    while (move := await next_move(table)) is not None:
        seat, body = move
        assert (await send(table, seat, body)).status_code == 200
        table.moves += 1
        found, seed = await sample(table, database_url)
        problems += found
        seeds.add(seed)
    await table.close()
    return table, problems, seeds


async def check_matches(server, database_url, matches, figures) -> None:
    """Play the matches, then check the views, the logs and the server's output."""
    played = [await play_and_check(server, database_url, seats, options, n)
              for n, (seats, options) in enumerate(matches)]
    assert [p for _, problems, _ in played for p in problems] == []
    secrets = [s for table, _, seeds in played for s in [*table.tokens, *seeds]]
    assert output_problems(server.output, secrets) == []
    for table, _, _ in played:
        await one_line_per_request(server, table)
    figures.update(matches=len(played), moves=sum(t.moves or 0 for t, _, _ in played),
                   requests_checked=sum(sum(t.sent.values()) for t, _, _ in played), leaks=0)


async def one_line_per_request(server, table: Table) -> None:
    """The access log has exactly one line per request the clients sent for this match."""
    sent = sum(n for path, n in table.sent.items() if table.match_id in path)
    for _ in range(100):
        lines = [line for line in access_lines(server.output)
                 if line.get("match") == table.match_id]
        if len(lines) >= sent:
            break
        await asyncio.sleep(0.1)
    assert len(lines) == sent
    seated = [line for line in lines if line["path"].endswith("/legal-actions")]
    assert all(line["seat"] is not None and line["status"] == 200 for line in seated)


async def test_random_matches_show_no_seat_or_spectator_a_hidden_card(
    server, server_database, figures
):
    """Given two short random matches, when every viewer looks after every move, then each sees
    exactly its observer's view, no card it may not know, and only its own log lines."""
    await check_matches(server, server_database, QUICK, figures)


@pytest.mark.slow
async def test_many_random_matches_of_two_to_six_seats_leak_nothing(
    server, server_database, figures
):
    """Given eight full-length random matches of 2 to 6 seats, then nothing leaks to anyone."""
    await check_matches(server, server_database, FULL, figures)


async def test_the_check_can_fail_on_a_doctored_view_or_log(server, server_database):
    """The check can fail: a spectator view showing a seat's hand (as a hand, or slipped into
    the ash) is caught, and so is a seat's log served as the public log."""
    table = await open_table([server], 2, random.Random(99))
    history = await history_of(server_database, table.match_id)
    state, events = fold(history, len(history.events)), typed(history, len(history.events))
    seat = (await served(table, None, "/view"))["board"]["turn"]
    hand = (await served(table, seat, "/view"))["board"]["hand"]
    shown_hand, in_ash = await served(table, None, "/view"), await served(table, None, "/view")
    shown_hand["board"]["hand"] = hand
    in_ash["board"]["ash"] = hand
    assert view_problems(state, None, shown_hand) and view_problems(state, None, in_ash)
    assert log_problems(events, None, await served(table, seat, "/log"))
