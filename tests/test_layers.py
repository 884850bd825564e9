"""The import contracts of pyproject.toml ([tool.importlinter], docs/architecture.md) hold, and
break on an import the wrong way: each case below adds one such import to a copy of the code and
runs the same `lint-imports` that `make lint` runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

WINGS = "The wings of service/"
LAYERS = "The rules know nothing of what reads them"
# (file the import is added to, the module it imports, the contract that must break)
WRONG_WAYS = [
    ("service/store/lru.py", "service.matches", WINGS),  # the store imports only itself
    ("service/store/memory.py", "service.live.hub", WINGS),
    ("service/matches.py", "service.http.app", WINGS),  # the application imports no wing
    ("service/loading.py", "service.tournament.tournaments", WINGS),
    ("service/live/feed.py", "service.tournament.rounds", WINGS),  # live and tournament: apart
    ("service/tournament/views.py", "service.live.hub", WINGS),
    ("service/http/front.py", "service.cli.main", WINGS),  # cli over http
    ("domain/core/rng.py", "projections.replay", LAYERS),
    ("projections/log.py", "service.schemas", LAYERS),
]


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` on a copy of the code, which it finds first on the path."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The packages and pyproject.toml, copied."""
    for package in ("domain", "projections", "service"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "web"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_the_code_as_it_is_keeps_every_contract(tree: Path):
    """Given the code unchanged, then every contract is kept."""
    result = lint(tree)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(("where", "imported", "contract"), WRONG_WAYS)
def test_an_import_the_wrong_way_breaks_its_contract(tree: Path, where: str, imported: str,
                                                     contract: str):
    """Given one import against the house's layers, then `lint-imports` fails, names the
    contract it broke and shows the import."""
    module = tree / where
    module.write_text(module.read_text() + f"\nimport {imported}  # noqa: E402\n")
    result = lint(tree)
    importer = where.removesuffix(".py").replace("/", ".")
    assert result.returncode != 0
    assert "1 broken" in result.stdout and f"{contract}" in result.stdout.split("BROKEN")[0]
    assert f"{importer} -> {imported}" in result.stdout, result.stdout


def test_a_module_on_no_floor_is_refused(tree: Path):
    """Given a new module of service/ that no layer names, then the exhaustive contract fails."""
    (tree / "service" / "stray.py").write_text('"""Nowhere."""\n')
    result = lint(tree)
    assert result.returncode != 0 and "stray" in result.stdout
