"""The README as a newcomer uses it: its first two commands, and its shell blocks run as pasted
in bash against a real `hearthlog serve`, so the walk-through cannot drift from the API."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.servers import copied_database, serving

README = Path(__file__).resolve().parents[1] / "README.md"
ADDRESS = "http://127.0.0.1:8000"  # where `make serve` listens, as the README says


def blocks(*languages: str) -> list[str]:
    """The README's fenced code blocks (only those tagged with one of ``languages`` when
    given), in order."""
    found = re.findall(r"^```(\w*)\n(.*?)^```", README.read_text(), re.M | re.S)
    return [text for tag, text in found if not languages or tag in languages]


def test_the_first_two_commands_are_make_serve_and_make_test():
    """Given the README, then its first code block starts with `make serve` and `make test`."""
    commands = [line.split("#")[0].strip() for line in blocks()[0].splitlines()]

    assert commands[:2] == ["make serve", "make test"]


def access_lines(output: str) -> list[dict]:
    """The server's access log: one JSON object per request."""
    lines = (line[line.index("{"):] for line in output.splitlines() if '"status":' in line)
    return [json.loads(line) for line in lines]


@pytest.fixture
async def readme_server(postgres_server_url: str, template_database: str):
    """A real `hearthlog serve` on a database of its own."""
    async with copied_database(postgres_server_url, template_database, "readme") as url:
        with serving(url) as server:
            yield server


@pytest.mark.slow
def test_every_shell_block_runs_as_pasted_against_a_real_server(readme_server, tmp_path):
    """Given a real server, when each of the README's shell blocks runs in bash (only the
    address changed to the server's, and stopping at the first failing command or unset
    variable), then it succeeds, the match it plays is finished with a result, and no request
    it sent was refused (no 4xx or 5xx in the server's access log)."""
    scripts = blocks("sh", "bash")
    assert scripts and all(script.count(ADDRESS) == 1 for script in scripts)
    for script in scripts:
        ran = subprocess.run(
            ["bash", "-c", "set -euo pipefail\n" + script.replace(ADDRESS, readme_server)
             + '\necho "MATCH=$MATCH"'],
            cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert ran.returncode == 0, (ran.stdout[-3000:], ran.stderr[-3000:])
        match = ran.stdout.strip().splitlines()[-1].removeprefix("MATCH=")
        summary = httpx.get(f"{readme_server}/matches/{match}").json()
        assert summary["status"] == "finished" and summary["result"], summary
    requests = access_lines(readme_server.output.read_text())
    assert len(requests) > 50
    assert [line for line in requests if line["status"] >= 400] == []
