"""Golden records: every registered rulebook has its committed matches, and each verifies.

A record is a finished match exported under its rules version and committed
(tests/games/golden/<game>/v<version>.ndjson). When a rules change makes an old record fail
verification here, the fix is not a new record: it is a new rules version. Register the changed
rules as version N+1 beside version N, leave version N's functions (and so its records)
unchanged, and write the new version's records with `python -m tests.games.golden
--write-missing`. Matches played under version N replay under version N forever
(docs/fairness.md, docs/conformance.md).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from domain.core.decider import Rulebook
from domain.core.rng import Rng
from domain.registry import RULEBOOKS, rulebooks
from projections.verify import verify
from tests.games import golden
from tests.games.test_conformance import BOOKS, rulebook_id


@BOOKS
def test_every_registered_rulebook_has_its_golden_records(game: Rulebook):
    path = golden.record_path(game)
    assert path.exists(), (
        f"{rulebook_id(game)} has no golden records at {path}: "
        "run `python -m tests.games.golden --write-missing` and commit the file"
    )
    documents = golden.records(path)
    assert len(documents) == len(golden.INDEXES)
    assert {(d.header.game, d.header.rules_version) for d in documents} == {
        (game.id, game.rules_version)}


@pytest.mark.parametrize("path", golden.record_files(), ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_golden_record_verifies_under_the_rules_version_it_was_played_with(path: Path):
    """A failure here means a rules change altered a finished match: make it a new version."""
    reports = [verify(document) for document in golden.records(path)]
    assert [report.problem for report in reports if not report.ok] == []
    assert all(report.seed_published for report in reports)


@pytest.mark.parametrize("path", golden.record_files(), ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_golden_record_belongs_to_a_registered_rulebook(path: Path):
    """A rules version is never unregistered while its records (and its matches) exist."""
    key = (path.parent.name, path.stem.removeprefix("v"))
    assert key in RULEBOOKS, f"{path} is of {key}, which no longer is registered"


def test_the_generator_writes_only_the_missing_records_and_never_rewrites_one(tmp_path: Path):
    first, *others = rulebooks()
    kept = golden.record_path(first, tmp_path)
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"an existing record\n")

    written = golden.write_missing(rulebooks(), tmp_path)

    assert kept.read_bytes() == b"an existing record\n"
    assert written == [golden.record_path(book, tmp_path) for book in others]
    assert all(verify(d).ok for path in written for d in golden.records(path))


@BOOKS
def test_a_rules_change_in_place_fails_the_old_records(game: Rulebook):
    """Why a change needs a new version: the same version with a changed deal (another shuffle,
    the seats in another order) no longer reproduces its committed matches."""
    changed = dataclasses.replace(
        game, setup=lambda options, names, rng: game.setup(options, names[::-1], Rng(b"changed")))
    documents = golden.records(golden.record_path(game))

    reports = [verify(d, {(game.id, game.rules_version): changed}) for d in documents]

    assert all(r.problem is not None and r.problem.check == "replay" for r in reports)
