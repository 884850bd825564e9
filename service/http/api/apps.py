"""Client apps, the operator's routes: register an app (its key shown once) and list them;
and the document's part of apps on every route (the X-Api-Key scheme, the RateLimit fields).

Both need ``Authorization: Bearer <HEARTHLOG_OPERATOR_TOKEN>``; a server started without that
variable refuses them (403, naming it). docs/api.md, "Client apps".
"""

from __future__ import annotations

from litestar import Controller, get, post
from litestar.openapi.spec import (
    Components,
    OpenAPI,
    OpenAPIHeader,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    PathItem,
    Reference,
    Schema,
    SecurityScheme,
)
from litestar.params import JSONBody

from service.apps import AppCreated, AppList, AppService, NewAppBody
from service.http.api.common import BODY_ERRORS, TOKEN, AnyRequest, errors, provide_token, strictly
from service.http.bootstrap import services


def apps_of(request: AnyRequest) -> AppService:
    """The apps' use cases, the operator's token checked (403 or 401 otherwise)."""
    apps = services(request.app).apps
    apps.operator(provide_token(request))
    return apps


class AppController(Controller):
    """Every route under /apps."""

    path = "/apps"
    tags = ["apps"]

    @post("/", operation_id="createApp", summary="Register a client app (operator)",
          responses=errors(400, 401, 403, 409, *BODY_ERRORS), security=TOKEN)
    async def create(self, request: AnyRequest, data: JSONBody[NewAppBody]) -> AppCreated:
        """Register an app with its quotas; the answer's key (shown once) goes in X-Api-Key."""
        apps = apps_of(request)
        return await apps.create(await strictly(request, data))

    @get("/", operation_id="listApps", summary="List the client apps (operator)",
         responses=errors(401, 403), security=TOKEN)
    async def list_apps(self, request: AnyRequest) -> AppList:
        """Every registered app and its quotas, oldest first; never a key."""
        return await apps_of(request).listed()


RATE_FIELDS = {
    "RateLimit-Policy": "The quotas that apply to this client (its address, or its app when it "
                        "sent X-Api-Key), as draft-ietf-httpapi-ratelimit-headers writes them: "
                        "'\"requests\";q=1200;w=60, \"matches\";q=60;w=3600' (q requests per w "
                        "seconds; matches: created with POST /matches)",
    "RateLimit": "What is left of each quota now and the seconds until its window ends: "
                 "'\"requests\";r=1187;t=42, \"matches\";r=60;t=3600'",
}
APP_KEY = SecurityScheme(
    type="apiKey", name="X-Api-Key", security_scheme_in="header",
    description="A client app's key (POST /apps, or 'hearthlog app add'): the request is counted "
                "under the app's own quotas instead of its address's. Optional on every route, "
                "alongside any bearer token; an unknown key is 401.")


def rate_limited(document: OpenAPI) -> None:
    """Every answer of every operation documents the RateLimit fields, and every operation
    takes an optional X-Api-Key beside the bearer token it may need."""
    components = document.components
    assert isinstance(components, Components)  # create_app's configuration gives them
    components.headers = {name: OpenAPIHeader(schema=Schema(type=OpenAPIType.STRING),
                                              description=text, required=True)
                          for name, text in RATE_FIELDS.items()}
    components.security_schemes = {**(components.security_schemes or {}), "AppKey": APP_KEY}
    for item in (document.paths or {}).values():
        for operation in operations(item):
            for answer in (operation.responses or {}).values():
                if isinstance(answer, OpenAPIResponse):
                    answer.headers = {**(answer.headers or {}), **{
                        name: Reference(f"#/components/headers/{name}") for name in RATE_FIELDS}}
            needs = operation.security or [{}]
            operation.security = [*needs, *({**need, "AppKey": []} for need in needs)]


def operations(item: PathItem) -> list[Operation]:
    """The operations of a path."""
    methods = (item.get, item.put, item.post, item.delete, item.options, item.head, item.patch,
               item.trace)
    return [operation for operation in methods if operation is not None]
