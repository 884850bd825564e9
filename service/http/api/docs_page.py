"""The /docs page: Swagger UI 5, served from files kept in the repository and checked by hash.

Nothing is loaded from anywhere but this server, so the page works on a machine without
internet. The files are ``swagger-ui-bundle.js`` and ``swagger-ui.css`` of the npm package
swagger-ui-dist, byte for byte, with its LICENSE and NOTICE, in ``service/http/docs_ui``; the
SHA-256 of each is recorded below, tests/api/test_docs_assets.py checks the files against it, and
the page asks the browser to check them too (Subresource Integrity). docs/api.md ("/docs") says
why this release of this package, and how to move to another.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

from litestar import Request, Router
from litestar.openapi.plugins import OpenAPIRenderPlugin
from litestar.static_files import create_static_files_router

SWAGGER_UI_VERSION = "5.35.0"
ASSETS = Path(__file__).resolve().parent.parent / "docs_ui"
ASSETS_PATH = "/docs/ui"
# The package's files: `npm pack swagger-ui-dist@5.35.0`, then `sha256sum package/<file>`;
# start.js is ours (it starts Swagger UI on our document).
PINNED = {
    "swagger-ui-bundle.js": "e6a898692f2d768e807c3ba4626068a69a2c5dd960dd6c76f3e4d3a3de180af2",
    "swagger-ui.css": "5ed08757e53da3e026d6cbecc61fe5d43585c9560b302d534ad56692519a273d",
    "start.js": "9804636e8d6ca74fb5f30eeb392d63f47f3ca7bb8584fe55bc1f95527042e508",
}
# What the page may load: our own origin only. Swagger UI sets inline styles and draws its icons
# as data: images.
DOCS_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; font-src 'self' data:; frame-ancestors 'none'; "
               "base-uri 'none'; form-action 'none'")


def integrity(name: str) -> str:
    """The Subresource Integrity value of a pinned file, from its recorded SHA-256."""
    return "sha256-" + base64.b64encode(bytes.fromhex(PINNED[name])).decode()


def docs_assets() -> Router:
    """The page's files, under /docs/ui/ (not in the OpenAPI document)."""
    return create_static_files_router(path=ASSETS_PATH, directories=[ASSETS],
                                      include_in_schema=False)


class OfflineSwaggerUI(OpenAPIRenderPlugin):
    """Swagger UI on the document this server serves, every file from this server."""

    def __init__(self, path: str = "/swagger") -> None:
        super().__init__(path=path)

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        """The page: the pinned stylesheet and scripts, and where the document is."""
        title = html.escape(openapi_schema["info"]["title"])
        document = html.escape(self.get_openapi_json_route(request))
        css, bundle, start = (f'"{ASSETS_PATH}/{name}" integrity="{integrity(name)}"'
                              for name in ("swagger-ui.css", "swagger-ui-bundle.js", "start.js"))
        return f"""<!DOCTYPE html>
<html lang="en">
  <head>
    <title>{title} API</title>
    <meta charset="utf-8"/>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="stylesheet" href={css}>
  </head>
  <body>
    <noscript>The API reference needs JavaScript; the document is at {document}.</noscript>
    <div id="swagger-ui" data-url="{document}"></div>
    <script src={bundle}></script>
    <script src={start}></script>
  </body>
</html>
""".encode()
