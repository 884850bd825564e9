"""The terminal client: a person plays a whole Wick & Ember match against bots from a terminal."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

import httpx

from tests.api.players import open_match
from tests.live.stream_client import wait_for

SECONDS = 180


class Terminal:
    """`hearthlog play` running on a pseudo-terminal, its output read as it comes."""

    def __init__(self, *args: str) -> None:
        self.master, slave = os.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli.main", "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            close_fds=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        os.close(slave)
        self.output = ""

    def read(self, seconds: float) -> str:
        """Whatever the client prints within ``seconds``."""
        if select.select([self.master], [], [], seconds)[0]:
            try:
                self.output += os.read(self.master, 65536).decode(errors="replace")
            except OSError:  # the client exited and the terminal closed
                pass
        return self.output

    def type(self, text: str) -> None:
        """Type a line."""
        os.write(self.master, text.encode())

    def close(self) -> None:
        """Stop the client if it still runs, and close the terminal."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        os.close(self.master)


async def test_a_person_plays_a_whole_match_against_bots_from_a_terminal(live_server):
    """Given a match with two bots, when a person joins with `hearthlog play --name` and answers
    every question with its first legal action, then the match is played to its end there. The
    person opens round 1 (a practice table): on about one deal in 200 the bots would otherwise
    snuff them before a first turn in every round, and the terminal would never ask them."""
    created = await open_match(
        live_server, 3, practice=True, options={"ember_target": 2, "opener": 2}
    )
    match_id = created["match_id"]
    async with httpx.AsyncClient(base_url=live_server) as client:
        for bot in ("careful", "random"):
            await client.post(f"/matches/{match_id}/seats", json={"bot": bot})
        terminal = Terminal(live_server, "--match", match_id, "--name", "Ash")
        try:

            async def seated() -> bool:
                """Whether the person has taken the last seat."""
                found = (await client.get(f"/matches/{match_id}")).json()
                return len(found["players"]) == 3

            await wait_for(seated, seconds=60)
            started = await client.post(
                f"/matches/{match_id}/start",
                headers={"authorization": f"Bearer {created['host_token']}"},
            )
            assert started.status_code == 200, started.text
            output, moves = play_through(terminal)
        finally:
            terminal.close()
        final = (await client.get(f"/matches/{match_id}")).json()
    assert final["status"] == "finished"
    assert "You took seat 2" in output and "Ash took seat 2" in output
    assert "Your hand:" in output and "1. Play " in output  # the first action, by its label
    assert moves >= 1
    assert "The match is over. Winner:" in output


def play_through(terminal: Terminal) -> tuple[str, int]:
    """Answer each question with 1 until the client says the match is over; output and moves."""
    deadline, moves = time.monotonic() + SECONDS, 0
    while time.monotonic() < deadline:
        output = terminal.read(0.5)
        if "The match is over" in output:
            return output, moves
        if output.count("Your move") > moves:
            terminal.type("1\n")
            moves += 1
    raise AssertionError(f"the match did not end in {SECONDS} s:\n{terminal.output[-3000:]}")
