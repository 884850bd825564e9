"""The `hearthlog` command: migrate, openapi, and serve on an embedded Postgres from nothing."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid

import httpx
import psutil

from service.store.provisioning import create_database, drop_database
from tests.servers import free_port, until_healthy

HEARTHLOG = [sys.executable, "-m", "service.cli.main"]


async def migrate(url: str) -> str:
    """Run `hearthlog migrate` on a database and return what it printed."""
    process = await asyncio.create_subprocess_exec(
        *HEARTHLOG, "migrate", "--database-url", url, stdout=asyncio.subprocess.PIPE)
    out, _ = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode == 0
    return out.decode()


async def test_migrate_applies_every_migration_once(postgres_server_url):
    """Given an empty database, when `hearthlog migrate` runs twice, then the first run applies
    every migration and the second applies nothing."""
    name = f"cli_{uuid.uuid4().hex[:12]}"
    url = await create_database(postgres_server_url, name)
    try:
        first = await migrate(url)
        second = await migrate(url)
    finally:
        await drop_database(postgres_server_url, name)
    assert "applied 0001" in first
    assert second.strip() == "nothing to apply"


def test_openapi_writes_the_document(tmp_path):
    """Given an output path, when `hearthlog openapi --out` runs, then it writes valid JSON."""
    out = tmp_path / "openapi.json"
    subprocess.run([*HEARTHLOG, "openapi", "--out", str(out)], check=True, timeout=120,
                   capture_output=True)
    assert json.loads(out.read_text())["info"]["title"] == "Hearthlog"


def test_serve_starts_its_own_embedded_postgres_in_the_data_dir(tmp_path):
    """Given no database URL, when `hearthlog serve --data-dir` runs, then it starts an embedded
    Postgres there, prints its URLs, and serves matches."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    process = subprocess.Popen(
        [*HEARTHLOG, "serve", "--data-dir", str(tmp_path / "data"), "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        lines = [process.stdout.readline() for _ in range(3)]
        assert any(f"http://127.0.0.1:{port}/docs" in line for line in lines), lines
        until_healthy(f"http://127.0.0.1:{port}", process, 60)
        created = httpx.post(f"http://127.0.0.1:{port}/matches",
                             json={"game": "wick-and-ember", "seats": 3})
        assert created.status_code == 201, created.text
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert (tmp_path / "data" / "pgdata" / "PG_VERSION").exists()
    assert process.returncode == 0
    assert not postgres_running(tmp_path / "data" / "pgdata"), "the embedded Postgres was left"


def postgres_running(data_dir) -> bool:
    """Whether a postgres process serves the given data folder."""
    for proc in psutil.process_iter(attrs=["name", "cmdline"]):
        if proc.info["name"] == "postgres" and str(data_dir) in " ".join(proc.info["cmdline"] or []):
            return True
    return False
