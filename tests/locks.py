"""One machine-wide lock per name, for set-up steps that test worker processes (pytest-xdist)
must not run at the same time: installing a package, writing a shared folder."""

from __future__ import annotations

import contextlib
import fcntl
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def machine_lock(name: str) -> Iterator[None]:
    """Hold the lock ``name`` (a file in the temporary folder) for the with-block; another
    process asking for it waits until it is released."""
    path = Path(tempfile.gettempdir()) / f"hearthlog-tests-{name}.lock"
    with path.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
