"""What wraps the whole application, outside litestar's router: every request passes here.

From the outside in: the client's address from a trusted proxy's X-Forwarded-For (uvicorn's
ProxyHeadersMiddleware, only when HEARTHLOG_TRUSTED_PROXIES names the proxies), the access log
(one line per request, the router's refusals included), then the per-client limits, then the
app. Wrapping ``asgi_handler`` keeps litestar's own exception handling, CORS and hooks inside.
"""

from __future__ import annotations

import os

from litestar import Litestar
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from service.limits import ClientLimits, Limits
from service.logs import AccessLog


def wrap(app: Litestar, limits: Limits) -> None:
    """Put the access log, the per-client limits and (if configured) the proxy headers around
    the app's handler."""
    handler = AccessLog(ClientLimits(app.asgi_handler, limits))
    proxies = os.environ.get("HEARTHLOG_TRUSTED_PROXIES")
    if proxies:
        handler = ProxyHeadersMiddleware(handler, trusted_hosts=proxies)  # type: ignore[arg-type]
    app.asgi_handler = handler
