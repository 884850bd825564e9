"""The /docs page's files kept in the repository are the pinned ones, byte for byte."""

from __future__ import annotations

import hashlib

from service.http.api.docs_page import ASSETS, PINNED


def test_every_file_of_the_docs_page_has_its_recorded_sha256():
    """Given the files under service/http/docs_ui, then each one the page loads hashes to the
    SHA-256 recorded beside its name, and the package's licence travels with them."""
    found = {name: hashlib.sha256((ASSETS / name).read_bytes()).hexdigest() for name in PINNED}
    assert found == PINNED
    assert "Apache License" in (ASSETS / "LICENSE").read_text()
    assert "swagger-ui" in (ASSETS / "NOTICE").read_text()
