"""/docs with the network cut: every file comes from the server, and every operation is drawn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def operations() -> list[str]:
    """The operation ids of the committed OpenAPI document."""
    paths = json.loads(DOCUMENT.read_text())["paths"]
    return sorted(operation["operationId"] for item in paths.values()
                  for operation in item.values() if isinstance(operation, dict)
                  and "operationId" in operation)


async def test_the_docs_page_draws_every_operation_with_nothing_but_the_server(
        web_server, browser):
    """Given a browser that can reach the server and nothing else, when it opens /docs, then the
    page asks nothing of anywhere else, breaks no policy, and draws one entry per operation of
    the document (each under its operation id)."""
    context = await browser.new_context()
    elsewhere: list[str] = []

    async def only_the_server(route):
        if route.request.url.startswith(f"{web_server}/"):
            await route.continue_()
        else:
            elsewhere.append(route.request.url)
            await route.abort("internetdisconnected")

    await context.route("**/*", only_the_server)
    page = await context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        await page.goto(f"{web_server}/docs")
        drawn = page.locator(".opblock")
        await drawn.nth(len(operations()) - 1).wait_for(timeout=60_000)
        ids = await page.locator(".opblock").evaluate_all(
            "blocks => blocks.map(b => b.id.replace(/^operations-[^-]+-/, ''))")
        title = await page.locator(".info .title").inner_text()
    finally:
        await context.close()
    assert elsewhere == []
    assert problems == []
    assert sorted(ids) == operations()
    assert title.startswith("Hearthlog")
