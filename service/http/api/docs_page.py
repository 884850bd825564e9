"""The /docs page: Scalar's API reference, its script pinned to one release by its integrity hash.

litestar's ScalarRenderPlugin loads ``@scalar/api-reference@latest`` and a stylesheet and icon
from a branch of another repository, none of them pinned: whatever those names point to on the
day runs on our origin. Here the page loads one file of one release, checked by the browser
against its SHA-384 (Subresource Integrity), and nothing else from elsewhere; the page's
Content-Security-Policy (service.http.front) allows that file and our own origin only. The file is
``dist/browser/standalone.js`` of the npm package, 4.8 MB: too large to keep in the repository.

To move to another release: ``npm pack @scalar/api-reference@X``, then
``openssl dgst -sha384 -binary package/dist/browser/standalone.js | openssl base64 -A``.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request
from litestar.openapi.plugins import ScalarRenderPlugin

SCALAR_VERSION = "1.76.0"
SCALAR_URL = (f"https://cdn.jsdelivr.net/npm/@scalar/api-reference@{SCALAR_VERSION}"
              "/dist/browser/standalone.js")
SCALAR_SHA384 = "oH1C0RwqcwbVXkC+r8A+4qRoyEUQdtxAzOwumkxZtQBBcsy61FOoPt7B50OVJYYQ"
# No fonts from Scalar's servers, no requests through its proxy: the page talks to us only.
SCALAR_OPTIONS = {"withDefaultFonts": False, "proxyUrl": ""}
# What the page may load: the pinned script, and everything else from our own origin.
DOCS_POLICY = ("default-src 'self'; script-src 'self' " + SCALAR_URL + "; style-src 'self' "
               "'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


class PinnedScalar(ScalarRenderPlugin):
    """Scalar's page with its one script pinned by version and integrity, nothing else fetched."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        """The page: the document's address, Scalar's options, the pinned script."""
        title = openapi_schema["info"]["title"]
        options = msgspec.json.encode(SCALAR_OPTIONS).decode()
        return f"""<!DOCTYPE html>
<html>
  <head>
    <title>{title}</title>
    <meta charset="utf-8"/>
    <meta name="viewport" content="width=device-width, initial-scale=1">
  </head>
  <body>
    <noscript>The API reference needs JavaScript; the document is at
      {self.get_openapi_json_route(request)}.</noscript>
    <script id="api-reference" type="application/json"
      data-url="{self.get_openapi_json_route(request)}" data-configuration='{options}'></script>
    <script src="{SCALAR_URL}" integrity="sha384-{SCALAR_SHA384}" crossorigin="anonymous"></script>
  </body>
</html>
""".encode()
