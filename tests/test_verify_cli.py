"""`hearthlog export` straight from a database and `hearthlog verify` offline, on files."""

from __future__ import annotations

import contextlib
import io
import json
import os
import pty
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import msgspec
import psutil
import pytest

from projections.export import encode_export
from service.cli.progress import Progress
from service.store.provisioning import create_database, create_pool, drop_database
from tests.replay.random_matches import exported, insert_finished, play

HEARTHLOG = [sys.executable, "-m", "service.cli.main"]


def run(*args: str) -> subprocess.CompletedProcess:
    """Run a hearthlog command and capture its output."""
    return subprocess.run([*HEARTHLOG, *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
async def filled(database_url: str) -> str:
    """A database holding 40 finished matches, 20 of them in the tournament "spring"."""
    pool = await create_pool(database_url, min_size=1, max_size=1)
    async with pool.acquire() as conn:
        await insert_finished(
            conn, [play(i, tournament="spring" if i % 2 else None) for i in range(40)]
        )
    await pool.close()
    return database_url


def test_an_export_from_the_database_verifies_match_by_match(filled, tmp_path):
    """Given 40 finished matches, when exported with --database-url and verified, then each gets
    an ok line with its head hash and the command exits 0."""
    out = tmp_path / "all.ndjson"

    exporting = run("export", "--database-url", filled, "--out", str(out))
    checked = run("verify", str(out))

    assert exporting.returncode == 0 and "wrote 40 matches" in exporting.stdout
    assert checked.returncode == 0
    assert checked.stdout.count("\nok    ") + checked.stdout.startswith("ok    ") == 40
    assert checked.stdout.strip().endswith("40 of 40 matches verified")


def test_filters_and_csv_apply_from_the_command_line(filled, tmp_path):
    """Given --tournament and --format csv, then only that tournament's seats are written."""
    out = tmp_path / "spring.csv"

    run(
        "export",
        "--database-url",
        filled,
        "--tournament",
        "spring",
        "--format",
        "csv",
        "--out",
        str(out),
    )

    rows = out.read_text().splitlines()
    expected = sum(2 + i % 5 for i in range(40) if i % 2)
    assert rows[0].split(",")[:10] == [  # the first CSV's columns, first and in their order
        "match_id", "game", "tournament", "seat", "name", "placement", "score", "finished_at",
        "head_hash", "bot"]
    assert len(rows) == 1 + expected and all(",spring," in row for row in rows[1:])


def test_a_tampered_line_fails_naming_the_event_and_the_exit_status_is_1(tmp_path):
    """Given three matches, one with a card changed, then that match fails naming the event
    with expected and found, the others pass, and the exit status is 1."""
    documents = [msgspec.json.decode(encode_export(exported(play(i)))) for i in range(3)]
    drawn = next(e for e in documents[1]["events"] if e["type"] == "turn_began")
    data = msgspec.json.decode(drawn["data"])  # the canonical bytes, as a JSON string
    data["drew"] = (data["drew"] + 1) % 16
    drawn["data"] = msgspec.json.encode(data).decode()
    path = tmp_path / "three.ndjson"
    path.write_bytes(b"".join(msgspec.json.encode(d) + b"\n" for d in documents))

    checked = run("verify", str(path))

    assert checked.returncode == 1
    assert f"event {drawn['version']} (replay)" in checked.stdout
    assert "expected:" in checked.stdout and "found:" in checked.stdout
    assert checked.stdout.strip().endswith("2 of 3 matches verified, 1 failed")


def test_one_indented_match_document_verifies(tmp_path):
    """Given a single match's export re-indented by another tool, then it verifies."""
    path = tmp_path / "one.json"
    document = msgspec.json.decode(encode_export(exported(play(5))))
    path.write_text(json.dumps(document, indent=2))

    checked = run("verify", str(path))

    assert checked.returncode == 0, checked.stdout
    assert "1 of 1 matches verified" in checked.stdout


def test_an_unknown_rules_version_is_refused_clearly(tmp_path):
    """Given a match claiming rules version 9, then verify refuses to re-rule it and exits 1."""
    document = msgspec.json.decode(encode_export(exported(play(6))))
    document["header"]["rules_version"] = "9"
    path = Path(tmp_path / "future.json")
    path.write_bytes(msgspec.json.encode(document))

    checked = run("verify", str(path))

    assert checked.returncode == 1
    assert "rules version 9 is unknown to this verifier" in checked.stdout


def test_a_file_that_is_not_an_export_fails_and_a_missing_file_exits_2(tmp_path):
    """Given a line that is not an export, then it fails; given no file, the exit status is 2."""
    path = tmp_path / "junk.ndjson"
    path.write_text('{"hello": "world"}\n')

    assert "not a Hearthlog export" in run("verify", str(path)).stdout
    assert run("verify", str(tmp_path / "missing.ndjson")).returncode == 2


def test_several_workers_report_the_same_lines_in_the_same_order_as_one(tmp_path):
    """Given 24 matches, one tampered and one line that is not an export, when verified with
    --jobs 2 and with --jobs 1, then the reports, their order, the tally and the exit status are
    the same."""
    documents = [msgspec.json.decode(encode_export(exported(play(i)))) for i in range(24)]
    documents[7]["header"]["server_seed"] = "00" * 32
    lines = [msgspec.json.encode(d) for d in documents]
    lines.insert(12, b'{"hello": "world"}')
    path = tmp_path / "many.ndjson"
    path.write_bytes(b"\n".join(lines) + b"\n")

    alone, shared = run("verify", "--jobs", "1", str(path)), run("verify", "--jobs", "2", str(path))

    assert shared.stdout == alone.stdout
    assert shared.returncode == alone.returncode == 1
    reported = [line.split()[-1] for line in alone.stdout.splitlines() if line.startswith("ok")]
    assert reported == [d["header"]["head_hash"] for n, d in enumerate(documents) if n != 7]
    assert f"FAIL  {documents[7]['header']['match_id']}" in alone.stdout
    assert "header (commitment)" in alone.stdout
    assert "FAIL  line 13: not a Hearthlog export" in alone.stdout
    assert alone.stdout.strip().endswith("23 of 25 matches verified, 2 failed")


def test_jobs_must_be_a_positive_count(tmp_path):
    """Given --jobs 0, then the command refuses it by name and exits 2."""
    refused = run("verify", "--jobs", "0", str(tmp_path / "any.ndjson"))

    assert refused.returncode == 2 and "--jobs: must be 1 or more" in refused.stderr


def test_ctrl_c_stops_the_command_and_its_workers_quietly(tmp_path):
    """Given a long file being verified by two workers, when interrupted (Ctrl-C), then the
    command says so and exits 130, with no traceback, and no worker process is left.

    How the test knows: the workers are seen running (the command's child processes, once it
    has printed a line) before the interrupt, and once the command has exited none of them
    runs, with no grace period: the command waits for its workers before it exits."""
    document = encode_export(exported(play(1)))
    path = tmp_path / "long.ndjson"
    path.write_bytes((document + b"\n") * 3000)
    command = subprocess.Popen([*HEARTHLOG, "verify", "--jobs", "2", str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    assert command.stdout.readline().startswith(b"ok    ")  # it is under way
    workers = workers_of(command)

    os.killpg(command.pid, signal.SIGINT)  # as Ctrl-C does: to the whole process group
    _, err = command.communicate(timeout=60)

    assert command.returncode == 130, err.decode()[-2000:]
    assert err.decode().strip() == "interrupted"
    assert still_running(workers) == []
    assert not [pid for pid in os.listdir("/proc") if pid.isdigit() and running_on(pid, path)]


def workers_of(command: subprocess.Popen) -> list[psutil.Process]:
    """The processes ``command`` has started (its workers), seen now: at least two."""
    workers = psutil.Process(command.pid).children(recursive=True)
    assert len(workers) >= 2, workers
    return workers


def still_running(processes: list[psutil.Process]) -> list[int]:
    """The pids of those ``processes`` still running (a zombie has exited: it is only not yet
    reaped; psutil tells a reused pid from the process it knew)."""
    running = []
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                running.append(process.pid)
    return running


def running_on(pid: str, path: Path) -> bool:
    """Whether process ``pid`` is alive with ``path`` on its command line."""
    try:
        return str(path).encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_a_reader_that_stops_reading_ends_the_command_quietly(tmp_path):
    """Given a long file verified into a pipe, when the reader stops after one line (as ``| head
    -1`` does), then the command exits 141 with no traceback, and no worker process is left
    (known as in the Ctrl-C test: the workers seen running before are gone once it exited)."""
    document = encode_export(exported(play(1)))
    path = tmp_path / "piped.ndjson"
    path.write_bytes((document + b"\n") * 3000)
    command = subprocess.Popen([*HEARTHLOG, "verify", "--jobs", "2", str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert command.stdout.readline().startswith(b"ok    ")
    workers = workers_of(command)

    command.stdout.close()  # the reader leaves
    err = command.stderr.read()
    command.wait(timeout=60)

    assert command.returncode == 141
    assert err == b""
    assert still_running(workers) == []
    assert not [pid for pid in os.listdir("/proc") if pid.isdigit() and running_on(pid, path)]


class Terminal(io.StringIO):
    """What a progress bar writes to, standing for a terminal."""

    def isatty(self) -> bool:
        """A terminal."""
        return True


def test_a_bar_redraws_at_most_ten_times_a_second_whatever_is_printed_between():
    """Given a bar on a terminal and a clock moving 1 ms per match, when 1,000 matches are
    counted with a report line printed before each, then it is drawn at most 12 times (the
    first, at most once per 0.1 s of that clock, and the last), and its last line counts
    matches."""
    now = [0.0]
    bar = Progress("verify", "matches", total=1000, stream=Terminal(), clock=lambda: now[0])

    for _ in range(1000):
        bar.clear()
        bar.advance()
        now[0] += 0.001
    bar.close()

    assert bar.draws <= 12
    assert bar.stream.getvalue().rstrip("\n").endswith("1,000 of 1,000 matches")


def test_a_bar_draws_nothing_when_its_stream_is_not_a_terminal():
    """Given a bar on a stream that is not a terminal, then nothing is ever written to it."""
    stream = io.StringIO()
    bar = Progress("export", "matches", stream=stream)

    bar.advance()
    bar.clear()
    bar.close()

    assert stream.getvalue() == "" and bar.done == 1


def test_verify_on_a_terminal_counts_matches_and_off_it_draws_nothing(tmp_path):
    """Given 12 matches, when verified with stderr on a terminal, then the bar counts matches
    (12 of 12, not bytes); with stderr a pipe, no bar is drawn at all."""
    path = tmp_path / "twelve.ndjson"
    path.write_bytes(b"".join(encode_export(exported(play(i))) + b"\n" for i in range(12)))
    terminal, side = pty.openpty()
    try:
        drawn = subprocess.run([*HEARTHLOG, "verify", "--jobs", "1", str(path)], stderr=side,
                               stdout=subprocess.PIPE, timeout=120)
        os.close(side)
        shown = read_all(terminal)
    finally:
        os.close(terminal)
    piped = run("verify", "--jobs", "1", str(path))

    assert drawn.returncode == piped.returncode == 0
    assert shown.rstrip().endswith("12 of 12 matches"), shown
    assert "bytes" not in shown
    assert piped.stderr == ""


def read_all(terminal: int) -> str:
    """Everything written to a terminal whose other side is closed."""
    chunks = []
    while True:
        try:
            chunk = os.read(terminal, 65536)
        except OSError:  # EIO: the other side is closed and nothing is left
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode()


async def test_an_export_from_a_database_hearthlog_never_made_is_one_line_and_no_file(
        postgres_server_url, tmp_path):
    """Given an empty database (never migrated), when exported from, then the command says so in
    one line, exits 1 and writes no file."""
    name = f"empty_{uuid.uuid4().hex[:12]}"
    url = await create_database(postgres_server_url, name)
    try:
        refused = run("export", "--database-url", url, "--out", str(tmp_path / "all.ndjson"))
    finally:
        await drop_database(postgres_server_url, name)

    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [refused.stderr.strip()], refused.stderr
    assert 'relation "matches" does not exist' in refused.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_empty_file_is_said_to_hold_no_match(tmp_path):
    """Given an empty export (a server had no finished match), then verify says the file holds
    no match, in one line, and exits 1."""
    path = tmp_path / "none.ndjson"
    path.write_bytes(b"\n")

    checked = run("verify", str(path))

    assert checked.returncode == 1
    assert checked.stderr.strip() == f"{path} holds no match to verify"
