"""Browser tests: Playwright driving Debian's Chromium against a real `hearthlog serve`.

No browser can be downloaded on these machines, so Playwright is pointed at the system binary
(/usr/bin/chromium). When it is missing, the set-up installs Debian's package (as root, with
apt-get), so `make test` does all the set-up on a fresh machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import AsyncIterator

import pytest

from tests.api.conftest import STARTUP_SECONDS
from tests.live.conftest import FAST
from tests.locks import machine_lock
from tests.servers import Server, copied_database, serving

CHROMIUM = "/usr/bin/chromium"
# What Chromium needs on a closed network: without the background-networking flags it keeps
# trying to reach hosts it cannot; as root it needs --no-sandbox.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str:
    """The system Chromium, installed from Debian's package when missing (as root; one test
    process at a time)."""
    with machine_lock("apt"):
        return _installed_chromium()


def _installed_chromium() -> str:
    """The system Chromium, installed first when missing."""
    found = shutil.which("chromium") or (CHROMIUM if os.path.exists(CHROMIUM) else None)
    if found:
        return found
    if os.geteuid() != 0:
        pytest.fail("the browser tests need Debian's chromium: run `apt-get install -y chromium`")
    for command in (["apt-get", "install", "-y", "-q", "chromium"],
                    ["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "chromium"]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=900,
                              env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        if done.returncode == 0 and shutil.which("chromium"):
            return shutil.which("chromium")  # type: ignore[return-value]
    pytest.fail(f"could not install Debian's chromium: {done.stderr[-2000:]}")


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[object]:
    """One headless Chromium for the session (each test opens its own contexts). The async API:
    the sync one runs a loop of its own, which the suite's asyncio fixtures cannot share."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=chromium(), args=FLAGS)
        yield launched
        await launched.close()


@pytest.fixture(scope="package")
async def web_server(postgres_server_url: str, template_database: str) -> AsyncIterator[Server]:
    """A fast `hearthlog serve` (bots move 20 ms after the last event) on a database of its own
    (``.database_url``) for the browser tests, carrying the test game Tally too, which has no
    table of its own (the generic table's)."""
    env = {**FAST, "HEARTHLOG_EXTRA_GAMES": "tests.tally"}
    async with copied_database(postgres_server_url, template_database, "web") as url:
        with serving(url, startup_seconds=STARTUP_SECONDS, env=env) as base:
            yield base
