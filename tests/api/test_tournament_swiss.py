"""The issue's end-to-end test: a whole Swiss tournament of 12 bots over 4 rounds through the
HTTP API of a real server, its bundle exported by the CLI and verified offline, and the same
bundle with a tampered pairing, a tampered result and a removed match each refused, naming
the round, the table and the first difference."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from tests.api.tournament_support import Organizer

pytestmark = pytest.mark.slow
NAMES = ["Ash", "Bryn", "Cole", "Dara", "Eve", "Finn", "Gale", "Hale", "Iris", "Jory", "Kell",
         "Lark"]


async def hearthlog(*args: str) -> tuple[int, str]:
    """Run the `hearthlog` command in its own process: its exit code and its output."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "service.cli.main", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(process.communicate(), timeout=300)
    return process.returncode or 0, out.decode()


def tampered(source: Path, target: Path, change) -> Path:
    """A copy of a bundle with ``change`` applied to its decoded lines (None drops a line)."""
    lines = [json.loads(line) for line in source.read_text().splitlines()]
    kept = [line for line in (change(line) for line in lines) if line is not None]
    target.write_text("".join(json.dumps(line) + "\n" for line in kept))
    return target


def swap_round_two_seats(line: dict) -> dict:
    """Round 2's third table with its two seats swapped."""
    if line["kind"] == "round" and line["round"] == 2:
        line["tables"][2]["seats"].reverse()
    return line


def flip_a_result(line: dict) -> dict:
    """Round 3, table 2's match with its placements reversed (the loser made the winner)."""
    if line["kind"] == "match" and (line["round"], line["table"]) == (3, 2):
        result = line["export"]["header"]["result"]
        result["placements"].reverse()
        result["winners"] = [result["placements"].index(1)]
    return line


def drop_a_match(line: dict) -> dict | None:
    """Round 4, table 5's match line removed."""
    if line["kind"] == "match" and (line["round"], line["table"]) == (4, 5):
        return None
    return line


async def test_a_twelve_bot_swiss_runs_to_the_end_and_its_bundle_verifies(fast_server, tmp_path):
    """Given 12 bot entrants in a 4-round Swiss that advances by itself, when the organizer
    starts round 1, then all four rounds are played to the end, the standings rank all 12,
    the bundle from the server and from the database are the same bytes and verify offline,
    and a tampered pairing, result or removed match each fails naming round and table."""
    organizer = Organizer(fast_server)
    made = await organizer.create(name="Twelve Bot Swiss", auto_advance=True, rounds=4)
    for name in NAMES:
        await organizer.register(name, bot="random")
    await organizer.close_registration()
    await organizer.start_round()
    finished = await organizer.until("finished", seconds=600)
    assert [r["round"] for r in finished["rounds"]] == [1, 2, 3, 4]
    assert all(len(r["tables"]) == 6 and not r["byes"] for r in finished["rounds"])
    assert finished["seed"] is not None and finished["seed_commitment"] == made["seed_commitment"]
    met = [frozenset(t["seats"]) for r in finished["rounds"] for t in r["tables"]]
    assert len(met) == len(set(met)) == 24  # no rematch in four rounds of twelve
    table = (await organizer.get("/standings")).json()
    assert table["after_round"] == 4 and len(table["standings"]) == 12
    await organizer.close()

    served, stored = tmp_path / "served.ndjson", tmp_path / "stored.ndjson"
    code, out = await hearthlog("export", "--tournament", organizer.id, "--bundle",
                                "--url", fast_server, "--out", str(served))
    assert code == 0, out
    code, out = await hearthlog("export", "--tournament", organizer.id, "--bundle",
                                "--database-url", fast_server.database_url, "--out", str(stored))
    assert code == 0, out
    assert served.read_bytes() == stored.read_bytes()
    assert len(served.read_text().splitlines()) == 1 + 4 + 24 + 1
    code, out = await hearthlog("verify", str(served))
    assert code == 0 and out.startswith("ok "), out

    for change, words in (
        (swap_round_two_seats, "round 2, table 3: seats differ"),
        (flip_a_result, "round 3, table 2"),
        (drop_a_match, "round 4, table 5"),
    ):
        bad = tampered(served, tmp_path / f"{change.__name__}.ndjson", change)
        code, out = await hearthlog("verify", str(bad))
        assert code == 1 and out.startswith("FAIL"), out
        assert words in out, out


async def test_a_swiss_at_three_seat_tables_runs_to_the_end_and_its_bundle_verifies(
        fast_server, tmp_path):
    """Given 7 bot entrants in a 3-round Swiss of Wick & Ember at 3-seat tables, when the
    organizer starts round 1, then every round seats two tables of three and gives one bye, no
    entrant has two byes, each table's points add up to 3, and the bundle verifies offline."""
    organizer = Organizer(fast_server)
    await organizer.create(name="Three Seat Swiss", table_size=3, auto_advance=True, rounds=3)
    for name in NAMES[:7]:
        await organizer.register(name, bot="random")
    await organizer.close_registration()
    await organizer.start_round()
    finished = await organizer.until("finished", seconds=600)
    assert all(len(r["tables"]) == 2 and len(r["byes"]) == 1 for r in finished["rounds"])
    assert all(len(t["seats"]) == 3 for r in finished["rounds"] for t in r["tables"])
    byes = [n for r in finished["rounds"] for n in r["byes"]]
    assert len(byes) == len(set(byes)) == 3
    table = (await organizer.get("/standings")).json()
    total = sum(float(s["points"]) for s in table["standings"])
    assert total == 3 * (2 * 3) + 3 * 2  # three rounds: two tables of 3 points, a bye of 2
    await organizer.close()

    bundle = tmp_path / "three-seat.ndjson"
    code, out = await hearthlog("export", "--tournament", organizer.id, "--bundle",
                                "--url", fast_server, "--out", str(bundle))
    assert code == 0, out
    code, out = await hearthlog("verify", str(bundle))
    assert code == 0 and out.startswith("ok "), out
