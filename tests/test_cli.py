"""The `hearthlog` command: migrate, openapi, and serve on an embedded Postgres from nothing."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import uuid

import httpx
import psutil

from service.cli.main import parser
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


def test_version_prints_the_installed_release():
    """When `hearthlog --version` runs, then it prints the installed version and exits 0."""
    from importlib.metadata import version

    shown = subprocess.run([*HEARTHLOG, "--version"], capture_output=True, text=True, timeout=60)

    assert shown.returncode == 0
    assert shown.stdout.strip() == f"hearthlog {version('hearthlog')}"


def subcommands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, by name."""
    top = parser()
    choices = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction)).choices
    return dict(choices)


def test_the_description_names_every_subcommand():
    """Given the top-level parser, then its description names each of its subcommands, play
    included, and the top-level help shows it."""
    names = subcommands()
    top = parser()

    assert "play" in names
    assert all(f" {name}" in top.description for name in names), top.description
    assert " ".join(top.description.split()) in " ".join(top.format_help().split())


def test_every_option_has_help_and_its_default_shown():
    """Given every subcommand, then each argument has help text, and each option that is not
    required (alone or as one of a required choice) and not an on/off flag shows its default in
    that help."""
    missing, no_default = [], []
    for name, sub in subcommands().items():
        formatter = sub._get_formatter()
        one_of = {a for g in sub._mutually_exclusive_groups if g.required for a in g._group_actions}
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            label = f"{name} {'/'.join(action.option_strings) or action.dest}"
            if not action.help:
                missing.append(label)
            flag = isinstance(action, argparse._StoreConstAction)
            required = action.required or action in one_of
            if action.option_strings and not required and not flag and \
                    "default" not in formatter._get_help_string(action):
                no_default.append(label)
    assert missing == [] and no_default == [], (missing, no_default)
    assert "(default: 8000)" in " ".join(subcommands()["serve"].format_help().split())


def test_export_without_a_source_is_one_line_and_creates_nothing(tmp_path):
    """Given a folder where no server has run and no database URL, when `hearthlog export --out`
    runs there, then it exits 2 with one line naming what to give, and the folder stays empty
    (no file, no .hearthlog/)."""
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}

    refused = subprocess.run([*HEARTHLOG, "export", "--out", "all.ndjson"], cwd=tmp_path,
                             env={**env, "PYTHONPATH": os.getcwd()}, capture_output=True,
                             text=True, timeout=120)

    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "--url" in refused.stderr and "--database-url" in refused.stderr
    assert list(tmp_path.iterdir()) == []


def test_export_to_a_folder_that_does_not_exist_is_one_line(tmp_path):
    """Given --out in a folder that does not exist, then export says it cannot write there, in
    one line, exits 1 and creates nothing."""
    refused = subprocess.run(
        [*HEARTHLOG, "export", "--url", "http://127.0.0.1:9", "--out",
         str(tmp_path / "missing" / "all.ndjson")], capture_output=True, text=True, timeout=120)

    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        f"export failed: cannot write {tmp_path / 'missing' / 'all.ndjson'}: No such file or directory"]
    assert list(tmp_path.iterdir()) == []
