"""CORS for client apps on other origins: off by default, on for the configured origins only."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from service.http.app import create_app

PREFLIGHT = {"Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type"}


def preflight(origin: str) -> dict[str, str]:
    """The headers of an OPTIONS preflight for a POST with a token from ``origin``."""
    return {"Origin": origin, **PREFLIGHT}


def test_without_configured_origins_no_other_origin_is_allowed(monkeypatch: pytest.MonkeyPatch):
    """Given no HEARTHLOG_CORS_ORIGINS, when another origin asks, then no CORS header answers."""
    monkeypatch.delenv("HEARTHLOG_CORS_ORIGINS", raising=False)
    with TestClient(create_app()) as client:
        answer = client.options("/matches", headers=preflight("https://tables.example"))
        assert "access-control-allow-origin" not in answer.headers
        page = client.get("/", headers={"Origin": "https://tables.example"})
        assert "access-control-allow-origin" not in page.headers


def test_a_configured_origin_may_send_a_token_and_another_may_not(monkeypatch: pytest.MonkeyPatch):
    """Given HEARTHLOG_CORS_ORIGINS names one origin, when it sends a preflight for a POST with
    an Authorization header, then it is allowed (no credentials mode: tokens are headers, not
    cookies); another origin gets no allowance."""
    monkeypatch.setenv("HEARTHLOG_CORS_ORIGINS", "https://tables.example, http://localhost:5173")
    with TestClient(create_app()) as client:
        allowed = client.options("/matches", headers=preflight("https://tables.example"))
        assert allowed.status_code in (200, 204)
        assert allowed.headers["access-control-allow-origin"] == "https://tables.example"
        assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
        assert "access-control-allow-credentials" not in allowed.headers
        refused = client.options("/matches", headers=preflight("https://evil.example"))
        assert refused.headers.get("access-control-allow-origin") != "https://evil.example"
        plain = client.get("/ui/style.css", headers={"Origin": "http://localhost:5173"})
        assert plain.headers["access-control-allow-origin"] == "http://localhost:5173"
        assert "retry-after" in plain.headers["access-control-expose-headers"].lower()
