"""`hearthlog verify --ratings`: a ratings export, taken from the database after the server's
rater applied the matches, recomputed offline from the matches' exports alone; a changed
rating, a dropped match and an added one are each named."""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
from pathlib import Path

import asyncpg
import msgspec
import pytest

from projections.export import encode_export
from service.cli.verifying import verify
from service.ratings import RatingService
from service.store.ratings import RatingStore
from tests.ratings.rated_matches import rated, written
from tests.replay.random_matches import Played, exported

GAME = "wick-and-ember"
PLAYERS = ("0a8f3c1e-1b2d-4c5e-8f70-000000000001", "0a8f3c1e-1b2d-4c5e-8f70-000000000002")


def some(count: int) -> list[Played]:
    """Rated matches (two players at every third table, bots elsewhere) and a few unrated."""
    return [rated(n, players=PLAYERS if n % 3 == 0 else (), rated=n % 10 != 9)
            for n in range(count)]


async def files(pool: asyncpg.Pool, matches: list[Played], folder: Path) -> tuple[Path, Path]:
    """Write the matches, let a rater apply them, and export both: (ratings, matches)."""
    await written(pool, matches)
    ratings = RatingService(RatingStore(pool))
    await ratings.catch_up(await ratings.start_from())
    rating_file, match_file = folder / "ratings.ndjson", folder / "matches.ndjson"
    rating_file.write_bytes(b"".join([part async for part in ratings.export(GAME)]))
    match_file.write_bytes(b"".join(encode_export(exported(m)) + b"\n" for m in matches))
    return rating_file, match_file


def checked(capsys: pytest.CaptureFixture[str], ratings: Path, *exports: Path) -> tuple[int, str]:
    """Run the verifier in this process: its exit code and what it printed."""
    code = verify(argparse.Namespace(file=[str(e) for e in exports], ratings=str(ratings),
                                     jobs=1))
    return code, capsys.readouterr().out


def edited(path: Path, keep: object = None, change: object = None) -> None:
    """Rewrite a file's lines: drop those ``keep`` refuses, pass the rest through ``change``."""
    lines = path.read_bytes().splitlines()
    kept = [line for n, line in enumerate(lines) if keep is None or keep(n, line)]  # type: ignore[operator]
    path.write_bytes(b"\n".join(change(n, line) if change else line  # type: ignore[operator]
                                for n, line in enumerate(kept)) + b"\n")


def nudged(target: int) -> object:
    """A change of the line ``target`` of an export: its mu_after a little higher."""

    def nudge(n: int, line: bytes) -> bytes:
        if n != target:
            return line
        update = msgspec.json.decode(line)
        return msgspec.json.encode({**update, "mu_after": update["mu_after"] + 1e-9})

    return nudge


async def test_a_ratings_export_verifies_offline(pool, tmp_path, capsys) -> None:
    """Given 40 matches rated by the server, then the export recomputes equal, exit 0."""
    ratings, matches = await files(pool, some(40), tmp_path)
    code, out = checked(capsys, ratings, matches)
    assert code == 0, out
    assert "40 of 40 matches verified, 36 rated of wick-and-ember" in out
    assert "recomputed and equal" in out


async def test_a_changed_rating_is_named(pool, tmp_path, capsys) -> None:
    """Given one update's mu_after nudged, then the verifier names its line, sequence,
    subject and field, with the recomputed and the found value."""
    ratings, matches = await files(pool, some(20), tmp_path)
    target = 7  # the 7th update (line 8)
    original = msgspec.json.decode(ratings.read_bytes().splitlines()[target])
    edited(ratings, change=nudged(target))
    code, out = checked(capsys, ratings, matches)
    assert code == 1
    assert f"line {target + 1}: sequence {original['sequence']}" in out
    assert f"subject {original['subject']}: mu_after differs" in out
    assert f"expected: {original['mu_after']!r}" in out


async def test_a_dropped_match_is_named(pool, tmp_path, capsys) -> None:
    """Given the matches' export without one rated match, then the verifier names the match
    the ratings export rates and no verified export holds."""
    all_matches = some(20)
    ratings, matches = await files(pool, all_matches, tmp_path)
    first = msgspec.json.decode(ratings.read_bytes().splitlines()[1])
    edited(matches, keep=lambda n, line: first["match_id"].encode() not in line)
    code, out = checked(capsys, ratings, matches)
    assert code == 1
    assert "19 of 19 matches verified" in out
    assert f"rates match {first['match_id']} but no verified export holds it" in out


async def test_an_added_match_is_named(pool, tmp_path, capsys) -> None:
    """Given a ratings export cut before its last match, then the verifier names the rated
    match it lacks."""
    ratings, matches = await files(pool, some(20), tmp_path)
    last = msgspec.json.decode(ratings.read_bytes().splitlines()[-1])
    edited(ratings, keep=lambda n, line: last["match_id"].encode() not in line)
    code, out = checked(capsys, ratings, matches)
    assert code == 1
    assert f"match {last['match_id']} is rated and verified but the ratings export has no " \
           "update for it" in out


async def test_the_command_line_takes_the_ratings_and_several_files(pool, tmp_path) -> None:
    """`hearthlog verify --ratings R A B`: the matches may be split over files."""
    played = some(12)
    ratings, matches = await files(pool, played, tmp_path)
    lines = matches.read_bytes().splitlines(keepends=True)
    (tmp_path / "a.ndjson").write_bytes(b"".join(lines[:5]))
    (tmp_path / "b.ndjson").write_bytes(b"".join(lines[5:]))
    command = [sys.executable, "-m", "service.cli.main", "verify", "--ratings", str(ratings),
               str(tmp_path / "a.ndjson"), str(tmp_path / "b.ndjson")]
    run = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True,
                                  timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "12 of 12 matches verified" in run.stdout


@pytest.mark.slow
async def test_a_thousand_rated_bot_matches_verify_offline(pool, tmp_path, capsys) -> None:
    """The issue's figure: 1,000 rated bot matches, rated by the server, verify offline, and a
    changed rating among them is still named."""
    played = [rated(n) for n in range(1000)]
    ratings, matches = await files(pool, played, tmp_path)
    code, out = checked(capsys, ratings, matches)
    assert code == 0, out
    assert "1000 of 1000 matches verified, 1000 rated" in out
    edited(ratings, change=nudged(500))
    code, out = checked(capsys, ratings, matches)
    assert code == 1 and "line 501" in out


async def test_a_match_that_fails_verification_stops_the_ratings_check(pool, tmp_path,
                                                                        capsys) -> None:
    """Given one match's export tampered with, then it is reported as verify reports it and the
    ratings are not checked: they come from verified matches alone."""
    ratings, matches = await files(pool, some(6), tmp_path)
    edited(matches, change=lambda n, line: line.replace(b'"label":null', b'"label":"x"', 1)
           if n == 2 else line)
    code, out = checked(capsys, ratings, matches)
    assert code == 1
    assert "FAIL" in out and "5 of 6 matches verified" in out
    assert "ratings not checked" in out


async def test_a_file_that_is_not_a_ratings_export_is_refused(tmp_path, capsys) -> None:
    """A first line that is no ratings header: exit 2, naming the file and the line."""
    bogus, matches = tmp_path / "r.ndjson", tmp_path / "m.ndjson"
    bogus.write_text('{"format": "hearthlog-match-export"}\n')
    matches.write_text("")
    code = verify(argparse.Namespace(file=[str(matches)], ratings=str(bogus), jobs=1))
    assert code == 2
    assert f"{bogus}: not a ratings export: line 1" in capsys.readouterr().err
