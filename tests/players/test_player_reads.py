"""A player's pages: its matches (paged, newest first, with its seat and place), and the export
of its finished matches, which `hearthlog verify` accepts offline, rated ones included."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.core.sources import StoppedClock
from tests.players.support import Client, bearer, opened, player

HEARTHLOG = [sys.executable, "-m", "service.cli.main"]


async def played(client: Client, first: dict[str, Any], second: dict[str, Any],
                 conceding: dict[str, Any] | None = None, **body: Any) -> str:
    """A two-seat match of two players, started, and finished by a concession if one is named:
    its id."""
    match = await opened(client, **body)
    for someone in (first, second):
        joined = await client.post(f"/matches/{match['match_id']}/seats", json={},
                                   headers=bearer(someone["token"]))
        assert joined.status_code == 201, joined.text
    started = await client.post(f"/matches/{match['match_id']}/start",
                                headers=bearer(match["host_token"]))
    assert started.status_code == 200, started.text
    if conceding is not None:
        gave_up = await client.post(f"/matches/{match['match_id']}/concede",
                                    headers=bearer(conceding["token"]))
        assert gave_up.status_code == 200, gave_up.text
    return str(match["match_id"])


async def test_a_players_matches_are_listed_newest_first_with_its_seat_and_place(
    client: Client, clock: StoppedClock
):
    ash, bryn = await player(client, "Ash"), await player(client, "Bryn")
    lost = await played(client, ash, bryn, conceding=ash)
    clock.advance(1)  # the newer match is opened a second later (the clock is stopped)
    running = await played(client, bryn, ash)

    page = (await client.get(f"/players/{ash['player_id']}/matches")).json()

    assert [(m["match_id"], m["seat"], m["status"], m["place"], m["won"])
            for m in page["matches"]] == [(running, 1, "playing", None, None),
                                          (lost, 0, "finished", 2, False)]
    assert page["next_offset"] is None
    bryns = (await client.get(f"/players/{bryn['player_id']}/matches")).json()["matches"]
    assert [(m["place"], m["won"]) for m in bryns if m["match_id"] == lost] == [(1, True)]


async def test_a_players_matches_come_a_page_at_a_time(client: Client):
    ash, bryn = await player(client, "Ash"), await player(client, "Bryn")
    ids = [await played(client, ash, bryn) for _ in range(3)]

    first = (await client.get(f"/players/{ash['player_id']}/matches?limit=2")).json()
    second = (await client.get(f"/players/{ash['player_id']}/matches?limit=2&offset=2")).json()

    assert first["next_offset"] == 2 and second["next_offset"] is None
    listed = [m["match_id"] for m in first["matches"] + second["matches"]]
    assert sorted(listed) == sorted(ids) and len(set(listed)) == 3


async def test_bad_paging_is_400_and_an_unknown_player_404(client: Client):
    ash = await player(client, "Ash")

    for query in ("limit=0", "limit=201", "offset=-1", "limit=two"):
        refused = await client.get(f"/players/{ash['player_id']}/matches?{query}")
        assert refused.status_code == 400, query
    for route in ("matches", "tournaments", "export"):
        missing = await client.get(f"/players/00000000-0000-4000-8000-000000000000/{route}")
        assert missing.status_code == 404 and "no player" in missing.json()["detail"]


async def test_a_players_export_holds_its_finished_matches_and_verifies_offline(
    client: Client, clock: StoppedClock, tmp_path: Path
):
    ash, bryn, cara = [await player(client, name) for name in ("Ash", "Bryn", "Cara")]
    casual = await played(client, ash, bryn, conceding=bryn)
    clock.advance(1)  # opened a second later: the export is oldest first
    rated = await played(client, cara, ash, conceding=cara, rated=True)
    await played(client, ash, cara)  # still running: not exported
    await played(client, bryn, cara, conceding=bryn)  # not Ash's

    answer = await client.get(f"/players/{ash['player_id']}/export")

    assert answer.status_code == 200 and answer.headers["x-match-count"] == "2"
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    documents = [json.loads(line) for line in answer.text.splitlines()]
    assert [d["header"]["match_id"] for d in documents] == [casual, rated]
    joined = [json.loads(e["data"]) if isinstance(e["data"], str) else e["data"]
              for e in documents[1]["events"] if e["type"] == "seat_joined"]
    assert [seat["player"] for seat in joined] == [cara["player_id"], ash["player_id"]]
    path = tmp_path / "ash.ndjson"
    path.write_text(answer.text)
    checked = await asyncio.to_thread(subprocess.run, [*HEARTHLOG, "verify", str(path)],
                                      capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
