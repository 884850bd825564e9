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
    assert refused == 1 and "the tournament is finished" in capsys.readouterr().err


def failed(capsys, *argv: str) -> list[str]:
    """Run the command line, asserting it exits 1 and prints nothing on stdout; its stderr."""
    assert main(list(argv)) == 1
    printed = capsys.readouterr()
    assert printed.out == ""
    return printed.err.splitlines()


async def test_an_export_that_cannot_be_written_or_is_refused_is_one_line_and_no_file(
        fast_server, capsys, tmp_path, monkeypatch):
    """Given a tournament still in registration, when its crosstable is exported to a folder
    that does not exist, then one line on stderr names the path (no traceback) and exit 1;
    when its bundle (not finished: 409) is exported, or a tournament that does not exist, then
    one line on stderr with the refusal, exit 1, and no file, not even a part one; and a file
    already at --out is left as it was."""
    made = run(capsys, "tournament", "create", fast_server, "--name", "Paper Cup", "--game",
               "wick-and-ember")
    tid = re.search(r"tournament (\S+)", made)[1]
    missing = tmp_path / "missing" / "cross.csv"
    assert failed(capsys, "tournament", "export", fast_server, tid, "--what", "crosstable",
                  "--out", str(missing)) == [
        f"export failed: cannot write {missing}: No such file or directory"]
    bundle = tmp_path / "cup.ndjson"
    [line] = failed(capsys, "tournament", "export", fast_server, tid, "--out", str(bundle))
    assert line.startswith("refused: 409: ") and "is not finished" in line
    kept = tmp_path / "kept.ndjson"
    kept.write_bytes(b"as it was\n")
    [line] = failed(capsys, "tournament", "export", fast_server, "no-such-id", "--out",
                    str(kept))
    assert line.startswith("refused: 404: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.ndjson"]
    assert kept.read_bytes() == b"as it was\n"
