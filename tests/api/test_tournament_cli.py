"""`hearthlog tournament`: an organizer runs a whole event from the command line against a
real server: create, register bots (with progress), close, rounds (followed to their end),
status, standings, export with progress, and verify the bundle with progress."""

from __future__ import annotations

import re

from service.cli.main import main


def run(capsys, *argv: str) -> str:
    """Run the command line; its printed output (asserting it exits 0)."""
    assert main(list(argv)) == 0, capsys.readouterr().out
    return capsys.readouterr().out


async def test_an_organizer_runs_an_event_from_the_command_line(fast_server, capsys, tmp_path,
                                                                 monkeypatch):
    """Given a server, when an organizer creates a 2-seat Swiss of 6 bots, closes it, plays
    its 3 rounds to their end and exports its bundle, then the bundle verifies, and the long
    steps said how far they had got."""
    made = run(capsys, "tournament", "create", fast_server, "--name", "Command Cup", "--game",
               "wick-and-ember", "--tiebreaks", "buchholz_cut1,wins")
    tid = re.search(r"tournament (\S+)", made)[1]
    monkeypatch.setenv("HEARTHLOG_ORGANIZER_TOKEN", re.search(r"\(shown once\): (\S+)", made)[1])
    assert "registered 6/6" in run(capsys, "tournament", "register", fast_server, tid, "Bot",
                                   "--bot", "random", "--count", "6")
    assert "6 entrants, 3 rounds" in run(capsys, "tournament", "close", fast_server, tid)
    for number in (1, 2, 3):
        out = run(capsys, "tournament", "round", fast_server, tid, "--wait")
        assert f"round {number}: 3/3 tables finished" in out
    assert ": finished, round 3 of 3" in run(capsys, "tournament", "status", fast_server, tid)
    assert "buchholz_cut1=" in run(capsys, "tournament", "standings", fast_server, tid)
    bundle = tmp_path / "cup.ndjson"
    assert "(14 lines)" in run(capsys, "tournament", "export", fast_server, tid, "--out",
                               str(bundle))
    checked = run(capsys, "tournament", "verify", str(bundle))
    assert "checking round 3" in checked and checked.splitlines()[-8].startswith("ok")
    refused = main(["tournament", "round", fast_server, tid])
    assert refused == 1 and "the tournament is finished" in capsys.readouterr().out
