"""Failover: the primary machine is lost mid-storm, its streaming standby is promoted, and the
server finds the new primary by itself.

A real primary and standby (tests/standby.py, the embedded Postgres binaries, ``pg_basebackup
-R``) commit durably; the server is given the multi-host URL of both with
``target_session_attrs=read-write``. Twenty clients play (storm.py); a bot match, a match whose
turn clock runs out every second and a follower of the bot match's stream run beside them. Once
enough commands are acknowledged, every process of the primary is killed with SIGKILL and, once
the clients have been answered 503 forty times (a failover manager takes a while to decide), the
standby is promoted (``pg_ctl promote``). While no primary answers,
the server must answer 503 with Retry-After (never a 500, never a hang); afterwards play goes
on, the bots and the clock move again and the stream carries the new versions.

Synchronous replication (the standby flushes each commit before it is acknowledged): every
command answered 200 is in the promoted database, and every command left unanswered is there
wholly or not at all. Asynchronous: what the standby had not received is lost; the test counts
it, and the server must still answer the truth (404 for a lost match, the promoted version for
a match that lost its last moves), never a 500. The figures go to docs/reliability.md and
docs/scaling.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import httpx
import pytest

from service.cli.play import SseParser
from service.store.migrations import apply_migrations
from service.store.provisioning import create_database
from tests.reliability.audit import audit, records
from tests.reliability.storm import Storm
from tests.servers import Server, launch, stop
from tests.standby import DURABLE, Pair, standby_pair

pytestmark = pytest.mark.slow
CLIENTS = 20
BEFORE = 300  # commands acknowledged before the kill
AFTER = 150  # commands sent after the kill and acknowledged, before the storm stops
PHASE_SECONDS = 180  # the most either phase may take
RESUME_SECONDS = 60  # the most the bots, the clock and the stream may take to move again
OUTAGE_503S = 40  # answers 503 (no primary) before the standby is promoted
SLOWEST = 15.0  # no request may wait longer for its answer (the body deadline is 10 s)
# Bots move half a second after they may (their match lasts past the kill); sweeps are quick.
LIVE = {"HEARTHLOG_BOT_DELAY": "0.5", "HEARTHLOG_SWEEP_SECONDS": "0.2",
        "HEARTHLOG_HEARTBEAT_SECONDS": "1"}
LONG = {"game": "wick-and-ember", "seats": 2, "options": {"ember_target": 10}}


@pytest.fixture
def pair() -> Iterator[Pair]:
    """A primary and its standby, committing durably; destroyed after the test."""
    with standby_pair(DURABLE) as made:
        yield made


@contextlib.asynccontextmanager
async def served(pair: Pair) -> AsyncIterator[tuple[Server, str]]:
    """A migrated database on the primary and a server given both hosts: (server, the
    database's name)."""
    url = await create_database(pair.primary_url, "hearthlog")
    await apply_migrations(url)
    server = launch(pair.failover_url("hearthlog"), env=LIVE)
    try:
        yield server, "hearthlog"
    finally:
        stop(server)
        server.output.unlink(missing_ok=True)


async def live_matches(server: Server) -> tuple[str, str]:
    """A match two bots play and a match whose seats never move (its turn clock of one second
    plays for them): their ids."""
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        bots = (await client.post("/matches", json=LONG)).json()
        for _ in range(2):
            joined = await client.post(f"/matches/{bots['match_id']}/seats",
                                       json={"bot": "random"})
            assert joined.status_code == 201, joined.text
        clocked = (await client.post("/matches", json={**LONG, "turn_seconds": 1})).json()
        for name in ("Idle", "Absent"):
            joined = await client.post(f"/matches/{clocked['match_id']}/seats",
                                       json={"name": name})
            assert joined.status_code == 201, joined.text
        for created in (bots, clocked):
            started = await client.post(
                f"/matches/{created['match_id']}/start",
                headers={"authorization": f"Bearer {created['host_token']}"})
            assert started.status_code == 200, started.text
    return bots["match_id"], clocked["match_id"]


async def follow(server: Server, match_id: str, seen: list[tuple[float, int]]) -> None:
    """Follow a match's stream as a spectator, noting (time, version) of each update; on a
    dropped stream or a refusal, open it again from the last version seen (Last-Event-ID)."""
    last: str | None = None
    async with httpx.AsyncClient(base_url=server, timeout=httpx.Timeout(30, read=60)) as client:
        while True:
            headers = {} if last is None else {"Last-Event-ID": last}
            try:
                async with client.stream("GET", f"/matches/{match_id}/stream",
                                         headers=headers) as answer:
                    if answer.status_code != 200:
                        await answer.aread()
                        await asyncio.sleep(0.2)
                        continue
                    parser = SseParser()
                    async for line in answer.aiter_lines():
                        message = parser.feed(line)
                        if message is not None:
                            update = json.loads("\n".join(message.data))
                            seen.append((time.monotonic(), update["version"]))
                            last = message.id
            except httpx.TransportError:
                await asyncio.sleep(0.2)


async def unreceived(pair: Pair) -> int:
    """Bytes of WAL the primary has written that the standby has not yet flushed: what an
    asynchronous standby would lose if the primary died now."""
    connection = await asyncpg.connect(pair.primary_url, timeout=10)
    try:
        return await connection.fetchval(
            """SELECT coalesce(max(pg_current_wal_lsn() - flush_lsn), 0)::bigint
            FROM pg_stat_replication""")
    finally:
        await connection.close()


async def version(url: str, match_id: str) -> int | None:
    """A match's version in a database (None: the database does not have it)."""
    connection = await asyncpg.connect(url, timeout=10)
    try:
        return await connection.fetchval("SELECT version FROM heads WHERE match_id = $1",
                                         match_id)
    finally:
        await connection.close()


async def moved_on(url: str, match_id: str, since: int | None, seconds: float) -> bool:
    """Whether the match's version passes ``since`` within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = await version(url, match_id)
        if now is not None and since is not None and now > since:
            return True
        await asyncio.sleep(0.2)
    return False


async def failover(pair: Pair, *, synchronous: bool) -> dict[str, Any]:
    """The whole run in one replication mode: its figures (and every problem seen)."""
    if synchronous:
        await pair.replicate_synchronously()
    async with served(pair) as (server, name):
        bot_match, clocked = await live_matches(server)
        seen: list[tuple[float, int]] = []
        watcher = asyncio.create_task(follow(server, bot_match, seen))
        storm = Storm(server, CLIENTS, seconds=3 * PHASE_SECONDS)
        playing = asyncio.create_task(storm.run())
        try:
            await storm.until(lambda: len(storm.ledger.acks) >= BEFORE, PHASE_SECONDS,
                              f"{BEFORE} acknowledged commands")
            at_risk = await unreceived(pair)
            await asyncio.to_thread(pair.kill_primary)
            killed = time.monotonic()  # every process of the primary is gone
            # A failover manager takes a while to decide: meanwhile no database takes writes.
            await storm.until(lambda: storm.statuses(killed)[503] >= OUTAGE_503S, PHASE_SECONDS,
                              f"{OUTAGE_503S} answers 503 while no primary answers")
            await asyncio.to_thread(pair.promote)
            promoted = time.monotonic()
            promoted_url = pair.standby_database(name)
            at_promotion = {m: await version(promoted_url, m) for m in (bot_match, clocked)}
            await storm.until(lambda: storm.acknowledged_after(killed) >= AFTER, PHASE_SECONDS,
                              f"{AFTER} commands acknowledged after the kill")
            resumed = {m: await moved_on(promoted_url, m, at_promotion[m], RESUME_SECONDS)
                       for m in (bot_match, clocked)}
            deadline = time.monotonic() + RESUME_SECONDS
            while not any(t > promoted and v > (at_promotion[bot_match] or 0) for t, v in seen):
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.1)
        finally:
            storm.stop()
            await asyncio.wait_for(playing, 60)
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)
        first_ok = storm.first_ok_after(killed)
        streamed = any(t > promoted and v > (at_promotion[bot_match] or 0) for t, v in seen)
        output = server.output.read_text(errors="replace")
    stored = await records(promoted_url)
    acked = storm.ledger.acks
    found = [cid for cid, (_, _, answer) in acked.items()
             if cid in stored and stored[cid][2] == answer]
    events, problems = await audit(promoted_url)
    return {
        "mode": "synchronous" if synchronous else "asynchronous",
        "clients": CLIENTS, "acknowledged": len(acked), "found": len(found),
        "lost": len(acked) - len(found),
        "acknowledged_before_kill": sum(1 for a in storm.answers if a.kind == "command"
                                        and a.status == 200 and a.answered < killed),
        "matches": len(storm.matches), "matches_lost": len(storm.lost_matches),
        "gap_s": None if first_ok is None else round(first_ok - killed, 2),
        "promoted_after_s": round(promoted - killed, 2),
        "first_200_after_promotion_s": None if first_ok is None else round(first_ok - promoted, 2),
        "unreceived_wal_bytes": at_risk,
        "statuses_after_kill": {str(k): n for k, n in storm.statuses(killed).items()},
        "answered_500": storm.statuses()[500], "without_retry_after": storm.without_retry_after(),
        "slowest_answer_s": round(storm.slowest(), 2),
        "bots_resumed": resumed[bot_match], "clock_resumed": resumed[clocked],
        "stream_resumed": streamed, "events_audited": events, "problems": problems,
        "tracebacks": output.count("Traceback"),
    }


def check(run: dict[str, Any], allowed: set[int | None]) -> None:
    """What every run must show, whatever the mode."""
    statuses = {None if k == "None" else int(k) for k in run["statuses_after_kill"]}
    assert run["answered_500"] == 0 and run["tracebacks"] == 0, run
    assert statuses <= allowed, run
    assert run["without_retry_after"] == 0, run
    assert run["slowest_answer_s"] < SLOWEST, run
    assert run["gap_s"] is not None and run["problems"] == [], run
    assert run["bots_resumed"] and run["clock_resumed"] and run["stream_resumed"], run


async def test_with_synchronous_replication_a_lost_primary_loses_no_acknowledged_command(
        pair: Pair, figures: dict[str, Any]):
    """Given a synchronous standby and twenty clients playing, when the primary is killed and
    the standby promoted, then every command answered 200 is in the promoted database, every
    other is there wholly or not at all, the server answered 503 with Retry-After meanwhile
    (never a 500, never a hang), and play, bots, clock and stream go on."""
    run = await failover(pair, synchronous=True)
    figures.update(run)
    check(run, {200, 201, 503, None})
    assert run["lost"] == 0 and run["matches_lost"] == 0, run


@pytest.mark.parametrize("attempt", [1, 2, 3])
async def test_with_asynchronous_replication_what_is_lost_is_counted_and_never_a_500(
        pair: Pair, figures: dict[str, Any], attempt: int):
    """Given an asynchronous standby and the same storm, when the primary is killed and the
    standby promoted, then what the standby had not received is lost (counted), and the server
    answers the promoted database's truth (404 for a lost match, 409 for a version that went
    back), never a 500, and play goes on."""
    run = await failover(pair, synchronous=False)
    figures.update(run, attempt=attempt)
    check(run, {200, 201, 404, 409, 503, None})


class Seats:
    """A two-seat match played over HTTP by the test, one legal move at a time."""

    def __init__(self, match_id: str, tokens: list[str]) -> None:
        self.match_id, self.tokens = match_id, tokens

    @classmethod
    async def open(cls, base: str) -> Seats:
        """Create, fill and start a long match."""
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            created = (await client.post("/matches", json=LONG)).json()
            tokens = [(await client.post(f"/matches/{created['match_id']}/seats",
                                         json={"name": name})).json()["token"]
                      for name in ("Ash", "Bryn")]
            started = await client.post(
                f"/matches/{created['match_id']}/start",
                headers={"authorization": f"Bearer {created['host_token']}"})
            assert started.status_code == 200, started.text
        return cls(created["match_id"], tokens)

    async def view(self, base: str) -> httpx.Response:
        """The spectator's view, as ``base`` serves it."""
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            return await client.get(f"/matches/{self.match_id}/view")

    async def move(self, base: str, pick: int = 0) -> httpx.Response:
        """The seat to act plays its legal action number ``pick`` (counted from the end when
        negative) through ``base``: the command's answer."""
        view = await self.view(base)
        assert view.status_code == 200, view.text
        seat = view.json()["board"]["turn"]
        headers = {"authorization": f"Bearer {self.tokens[seat]}"}
        async with httpx.AsyncClient(base_url=base, timeout=30, headers=headers) as client:
            legal = await client.get(f"/matches/{self.match_id}/legal-actions")
            assert legal.status_code == 200, legal.text
            actions = legal.json()["actions"]
            return await client.post(f"/matches/{self.match_id}/commands", json={
                "command": actions[pick % len(actions)]["command"],
                "expected_version": legal.json()["version"]})

    async def moves(self, base: str, count: int, pick: int = 0) -> None:
        """``count`` moves through ``base``, each answered 200."""
        for _ in range(count):
            answer = await self.move(base, pick)
            assert answer.status_code == 200, answer.text

    async def moves_until(self, base: str, version: int, pick: int = 0) -> None:
        """Moves through ``base`` until the match is at ``version`` or past it."""
        while (await self.view(base)).json()["version"] < version:
            answer = await self.move(base, pick)
            assert answer.status_code == 200, answer.text

    async def command_as(self, base: str, seat: int) -> httpx.Response:
        """A command from ``seat`` (a concession: legal whenever the match runs)."""
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            return await client.post(
                f"/matches/{self.match_id}/commands", json={"command": {"type": "concede"}},
                headers={"authorization": f"Bearer {self.tokens[seat]}"})


async def test_after_an_asynchronous_failover_the_server_serves_the_promoted_history_not_its_cache(
        pair: Pair, figures: dict[str, Any]):
    """Given a server that played two matches on the primary while its asynchronous standby was
    away (so the standby never got the second match, nor the first one's last moves), when the
    primary is killed and that standby promoted, then the lost match is a 404 to its seats
    (never a 500, though the server had it cached), the first match is served as the promoted
    database holds it, and once another server plays it on to the same version along another
    line, this server serves and extends that line, not the one it had cached."""
    async with served(pair) as (server, name):
        kept = await Seats.open(server)
        await kept.moves(server, 4)
        await pair.caught_up()
        promoted_at = (await kept.view(server)).json()["version"]
        pair.stop_standby()
        await kept.moves(server, 4)
        cached_at = (await kept.view(server)).json()["version"]
        lost = await Seats.open(server)
        await lost.moves(server, 2)
        await asyncio.to_thread(pair.kill_primary)
        pair.start_standby()
        await asyncio.to_thread(pair.promote)
        promoted_url = pair.standby_database(name)
        assert await version(promoted_url, lost.match_id) is None
        assert await version(promoted_url, kept.match_id) == promoted_at

        answers = [await lost.view(server), await lost.command_as(server, 0),
                   await lost.command_as(server, 1)]
        assert [a.status_code for a in answers] == [404, 404, 404], [a.text for a in answers]

        other = launch(pair.failover_url(name), env=LIVE)
        try:
            await kept.moves_until(other, cached_at, pick=-1)
            ours, theirs = await kept.view(server), await kept.view(other)
            assert ours.json() == theirs.json()
            answer = await kept.move(server)
            assert answer.status_code == 200, answer.text
        finally:
            stop(other)
            other.output.unlink(missing_ok=True)
        events, problems = await audit(promoted_url)
        assert problems == []
    figures.update(lost_match_answers=[a.status_code for a in answers], events_audited=events,
                   versions_lost=cached_at - promoted_at)
