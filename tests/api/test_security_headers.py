"""Every answer carries the standard security headers; the /docs page loads one pinned script."""

from __future__ import annotations

import re

import httpx

from service.http.api.docs_page import PINNED, integrity
from tests.api.players import seated_match

STANDARD = {"x-content-type-options": "nosniff", "x-frame-options": "DENY",
            "referrer-policy": "no-referrer", "cross-origin-opener-policy": "same-origin"}


def secured(answer: httpx.Response) -> None:
    """The answer has every standard header, and a JSON answer a policy that loads nothing."""
    for name, value in STANDARD.items():
        assert answer.headers.get(name) == value, (answer.request.url, name)
    if answer.headers.get("content-type", "").startswith("application/json"):
        assert answer.headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"


async def test_every_kind_of_answer_carries_the_security_headers(server):
    """Given a success, a refusal by a route, a router's 404 and 405, an error of the body
    reader and a stream, then each answer has the headers."""
    created, _ = await seated_match(server, ["Ash", "Bryn"])
    async with httpx.AsyncClient(base_url=server) as client:
        answers = [await client.get("/health"), await client.get("/games"),
                   await client.get(f"/matches/{created['match_id']}/legal-actions"),
                   await client.get("/no-such-route"), await client.put("/games"),
                   await client.post("/matches", content=b"x", headers={"content-type": "text/plain"})]
        async with client.stream("GET", f"/matches/{created['match_id']}/stream") as stream:
            answers.append(stream)
    assert [a.status_code for a in answers] == [200, 200, 401, 404, 405, 415, 200]
    for answer in answers:
        secured(answer)


async def test_the_docs_page_loads_only_its_own_files_each_checked_by_integrity(server):
    """Given the /docs page, then it loads nothing from another origin, each file it loads
    carries the integrity of its pinned SHA-256, and its policy allows our origin only."""
    async with httpx.AsyncClient(base_url=server) as client:
        page = await client.get("/docs")
    assert page.status_code == 200
    secured(page)
    loaded = re.findall(r'(?:src|href)="([^"]+)" integrity="([^"]+)"', page.text)
    assert sorted(path.rsplit("/", 1)[1] for path, _ in loaded) == sorted(PINNED)
    assert all(path.startswith("/docs/ui/") for path, _ in loaded)
    assert all(given == integrity(path.rsplit("/", 1)[1]) for path, given in loaded)
    assert not re.search(r'(?:src|href)="(?:https?:)?//', page.text)
    policy = page.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy


async def test_the_web_clients_pages_are_utf8_html_under_the_page_policy(server):
    """Given the lobby, a table and a replay address, then each is HTML with one charset
    (utf-8, named once) and the pages' policy: scripts and styles from the server alone."""
    async with httpx.AsyncClient(base_url=server) as client:
        for path in ("/", "/play/some-match", "/replay/some-match"):
            answer = await client.get(path)
            assert answer.status_code == 200, path
            assert answer.headers["content-type"] == "text/html; charset=utf-8", path
            assert answer.headers["content-security-policy"].startswith("default-src 'self'")
            secured(answer)
